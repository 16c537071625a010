//! The parts of the `robotsmatch` command line that are worth testing on their own: reading a
//! crawl-log line (the fuzz targets in `tools/fuzz` drive it with arbitrary bytes) and reading
//! WARC files of robots.txt captures. The binary (`src/main.rs`) wires everything else.
#![deny(missing_docs)]

pub mod logline;
pub mod warc;
