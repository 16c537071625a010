//! Arbitrary log bytes through the log reader (`robotsmatch_bulk::reader::run`): plain files
//! memory-mapped or streamed, gzip streamed (whole, cut short, or followed by junk), any chunk
//! size, line limit and thread count. The lines handed out must be exactly those of an obvious
//! splitter (LF, CR LF or a lone CR; a byte-order mark dropped from the first line; a line over
//! the limit marked and cut to its first 256 bytes; after a gzip error, only the complete
//! lines, and the cut one if it was already over the limit), every byte read must be
//! accounted for, and an error reported exactly when the
//! stream failed. The input's `Debug` is the reproducer.
#![no_main]

use std::io::Read;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use robotsmatch_bulk::reader::{run, LogPath, ReadConfig, LINE_PREFIX};

#[derive(Arbitrary, Debug)]
struct Input {
    /// 0: plain, mapped; 1: plain, streamed; 2: gzip; 3: gzip cut at `cut`; 4: gzip and junk.
    mode: u8,
    chunk: u16,
    max_line: u16,
    threads: u8,
    cut: u16,
    text: Vec<u8>,
}

type Lines = Vec<(Vec<u8>, bool)>;

/// The obvious splitter.
fn reference(text: &[u8], complete_only: bool, max_line: usize) -> Lines {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut first = true;
    let mut push = |raw: &[u8], first: &mut bool| {
        let too_long = raw.len() > max_line;
        let mut t = raw;
        if *first {
            t = t.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(t);
            *first = false;
        }
        if too_long {
            t = &t[..t.len().min(LINE_PREFIX)];
        }
        out.push((t.to_vec(), too_long));
    };
    while i < text.len() {
        match text[i] {
            b'\n' => {
                push(&text[start..i], &mut first);
                i += 1;
                start = i;
            }
            b'\r' => {
                push(&text[start..i], &mut first);
                i += if text.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    // After a failure the cut line is dropped, unless it was already longer than the limit
    // (then it was handed out, marked, as soon as that was known).
    if start < text.len() && (!complete_only || text.len() - start > max_line) {
        push(&text[start..], &mut first);
    }
    out
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut e, data).expect("gzip");
    e.finish().expect("gzip")
}

fuzz_target!(|input: Input| {
    let max_line = usize::from(input.max_line % 512) + 1;
    let chunk = usize::from(input.chunk % 2048) + 1;
    let threads = usize::from(input.threads % 3) + 1;
    let (file, mmap) = match input.mode % 5 {
        0 => (input.text.clone(), true),
        1 => (input.text.clone(), false),
        2 => (gzip(&input.text), true),
        3 => {
            let z = gzip(&input.text);
            let cut = usize::from(input.cut) % (z.len() + 1);
            (z[..cut].to_vec(), true)
        }
        _ => {
            let mut z = gzip(&input.text);
            z.extend_from_slice(&input.text[..input.text.len().min(usize::from(input.cut % 64))]);
            (z, true)
        }
    };
    // What the reader should see: the plain text, or what a decoder yields before it fails.
    let (text, failed) = if file.starts_with(&[0x1f, 0x8b]) {
        let mut decoded = Vec::new();
        let mut d = flate2::read::MultiGzDecoder::new(std::io::BufReader::new(&file[..]));
        let mut buf = [0u8; 4096];
        let failed = loop {
            match d.read(&mut buf) {
                Ok(0) => break false,
                Ok(n) => decoded.extend_from_slice(&buf[..n]),
                Err(_) => break true,
            }
        };
        (decoded, failed)
    } else {
        (file.clone(), false)
    };
    let want = reference(&text, failed, max_line);

    let path = std::env::temp_dir().join(format!("robotsmatch-fuzz-reader-{}", std::process::id()));
    std::fs::write(&path, &file).expect("write");
    let config = ReadConfig {
        chunk_size: chunk,
        mmap,
        threads,
        max_line,
    };
    let mut got: Lines = Vec::new();
    let mut bytes = 0u64;
    let finished = run(
        &[LogPath::File(path)],
        &config,
        || (),
        |_, c| {
            c.lines()
                .map(|l| (l.text.to_vec(), l.too_long))
                .collect::<Lines>()
        },
        |lines, b| {
            got.extend(lines);
            bytes += b;
            Ok(())
        },
    )
    .expect("the log opens");
    assert_eq!(got, want, "{input:?}");
    assert_eq!(finished.errors.is_empty(), !failed, "{:?}", finished.errors);
    if !failed {
        assert_eq!(bytes, text.len() as u64, "every byte is accounted for");
    }
});
