//! Engine and parse limits shared by the commands (`--engine`, `--dense-size-limit`, ...),
//! with the library's defaults.

use clap::{Args, ValueEnum};
use robotsmatch::{EngineChoice, MatcherBuilder, ParseConfig, Profile};

/// Engine and parse limits.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Engine: auto (the direct engine, then, once a matcher of more than 8 patterns has
    /// done enough work, the radix tree, or the lazy DFA for small files with 5 to 64
    /// wildcard patterns), tree, lazy, dense, split, direct, or reference.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto, help_heading = "Limits")]
    engine: EngineArg,
    /// Largest DFA table built (the tree's search of many pieces at once; the dense and split
    /// engines), in bytes [default: 1 MiB for check, 16 KiB per body for classify].
    #[arg(long, value_name = "BYTES", help_heading = "Limits")]
    dense_size_limit: Option<usize>,
    /// Largest NFA built, in bytes; above it the reference matcher decides.
    #[arg(long, value_name = "BYTES", default_value_t = 32 << 20, help_heading = "Limits")]
    nfa_size_limit: usize,
    /// Capacity of one lazy-DFA cache, in bytes (one per thread and robots.txt body).
    #[arg(long, value_name = "BYTES", default_value_t = 2 << 20, help_heading = "Limits")]
    cache_capacity: usize,
    /// Bytes of a robots.txt file that are parsed.
    #[arg(long, value_name = "BYTES", default_value_t = ParseConfig::DEFAULT_MAX_BYTES, help_heading = "Limits")]
    max_robots_size: usize,
    /// Bytes of one robots.txt line that are kept.
    #[arg(long, value_name = "BYTES", default_value_t = ParseConfig::DEFAULT_MAX_LINE_LEN, help_heading = "Limits")]
    max_line_length: usize,
}

/// `--engine` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Auto,
    Tree,
    Lazy,
    Dense,
    Split,
    Direct,
    Reference,
}

/// Reads at most `limit` bytes of a robots.txt file; the error names the file.
pub fn read_robots_up_to(path: &std::path::Path, limit: usize) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context;
    robotsmatch_bulk::store::read_limited(path, limit)
        .with_context(|| format!("cannot read robots.txt file '{}'", path.display()))
}

impl LimitArgs {
    /// Reads a robots.txt file for parsing: at most the parse limit + 1 byte, all the parser
    /// looks at (issue 16.6: `--robots /dev/zero` must not eat memory). The error names the
    /// file.
    pub fn read_robots(&self, path: &std::path::Path) -> anyhow::Result<Vec<u8>> {
        read_robots_up_to(path, self.parse_config().get_max_bytes().saturating_add(1))
    }

    /// The parse limits.
    pub fn parse_config(&self) -> ParseConfig {
        ParseConfig::new()
            .max_bytes(self.max_robots_size)
            .max_line_len(self.max_line_length)
    }

    /// A matcher builder with these limits, `profile`, and `dense_default` as the dense budget
    /// when none was given.
    pub fn builder(&self, profile: Profile, dense_default: usize) -> MatcherBuilder {
        MatcherBuilder::new()
            .profile(profile)
            .engine(match self.engine {
                EngineArg::Auto => EngineChoice::Auto,
                EngineArg::Tree => EngineChoice::Tree,
                EngineArg::Lazy => EngineChoice::Lazy,
                EngineArg::Dense => EngineChoice::Dense,
                EngineArg::Split => EngineChoice::Split,
                EngineArg::Direct => EngineChoice::Direct,
                EngineArg::Reference => EngineChoice::Reference,
            })
            .dense_size_limit(self.dense_size_limit.unwrap_or(dense_default))
            .nfa_size_limit(self.nfa_size_limit)
            .cache_capacity(self.cache_capacity)
    }
}
