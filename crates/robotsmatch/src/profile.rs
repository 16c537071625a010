//! Profiles: the choices that distinguish one crawler's reading of robots.txt from another's.
//!
//! A profile is data, not a second engine: the parser, the selection, the canonicaliser and the
//! automaton are shared, and a profile only switches their options.
#![forbid(unsafe_code)]

use std::fmt;

/// How the deciding rule is chosen among the rules that match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precedence {
    /// The longest pattern wins (length in bytes after canonical percent-encoding, `*` and `$`
    /// included); on equal length Allow wins. RFC 9309 and Google.
    LongestMatch,
    /// The first matching rule in file order wins (the 1994/1996 convention).
    FirstMatch,
}

/// A set of matching choices. Use [`Profile::GOOGLE`] (the default) or [`Profile::LEGACY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Profile {
    /// The name used on the command line.
    pub name: &'static str,
    /// How the deciding rule is chosen.
    pub precedence: Precedence,
    /// `*` matches any sequence of bytes (otherwise it is a literal character).
    pub wildcards: bool,
    /// A final `$` anchors the pattern at the end of the URL (otherwise it is literal).
    pub end_anchor: bool,
    /// Google's rule: `Allow: /dir/index.html` also allows `/dir/` (as `/dir/$`).
    pub index_html: bool,
    /// All groups naming the crawler are merged (otherwise only the first is used).
    pub merge_groups: bool,
    /// `/robots.txt` itself is always allowed (RFC 9309 §2.2.2).
    pub robots_txt_allowed: bool,
}

impl Profile {
    /// True when `path` (canonical) is `/robots.txt` and the profile always allows it.
    #[inline]
    pub fn always_allows(&self, path: &[u8]) -> bool {
        self.robots_txt_allowed && path == b"/robots.txt"
    }

    /// RFC 9309 as Google applies it: longest match, Allow wins ties, `*` and `$`, merged
    /// groups, the `index.html` rule.
    pub const GOOGLE: Profile = Profile {
        name: "google",
        precedence: Precedence::LongestMatch,
        wildcards: true,
        end_anchor: true,
        index_html: true,
        merge_groups: true,
        robots_txt_allowed: true,
    };

    /// The 1994/1996 convention (Python's `urllib.robotparser` before 2026 and many older
    /// crawlers): the first matching rule in file order wins, `*` and `$` are literal, only the
    /// first group naming the crawler is used.
    pub const LEGACY: Profile = Profile {
        name: "legacy",
        precedence: Precedence::FirstMatch,
        wildcards: false,
        end_anchor: false,
        index_html: false,
        merge_groups: false,
        robots_txt_allowed: true,
    };

    /// Every built-in profile.
    pub const ALL: &'static [Profile] = &[Profile::GOOGLE, Profile::LEGACY];

    /// Looks a profile up by name, ignoring ASCII case.
    ///
    /// ```
    /// use robotsmatch::Profile;
    /// assert_eq!(Profile::from_name("Legacy"), Some(Profile::LEGACY));
    /// assert_eq!(Profile::from_name("bing"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL
            .iter()
            .copied()
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }
}

impl Default for Profile {
    fn default() -> Profile {
        Profile::GOOGLE
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}
