//! Bulk classification of crawl logs against a per-host robots store (moved out of the
//! command line so that crawlers, the Python package and other tools can use it).
#![deny(missing_docs)]

pub mod logline;
pub mod reader;
pub mod store;
pub mod warc;
