//! Integration tests, built as one binary.

mod conformance;
mod corpus;
mod generated;
mod oracle;
mod prop;
mod tiers;
mod url;
