//! The collector the rule groups report into: it keeps every error (up to
//! [`MAX_ERRORS`]) or stops at the first.

use crate::base::error::Error;

/// Capacity of an [`ErrorList`].
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, validate_all, MAX_ERRORS};
/// assert_eq!(MAX_ERRORS, 16);
/// let text = format!("f32[2]{{0:T({})}}", vec!["0"; 20].join(","));
/// let errors = validate_all(&parse_array_unvalidated(&text).unwrap());
/// assert_eq!((errors.len(), errors.dropped()), (MAX_ERRORS, 4));
/// ```
pub const MAX_ERRORS: usize = 16;

/// Up to [`MAX_ERRORS`] errors, in the order the rules found them.
///
/// ```
/// # use layout_core as xla_layout;
/// use xla_layout::{parse_array_unvalidated, validate_all, ErrorKind};
/// let s = parse_array_unvalidated("f32[2,3]{0,0:L(0)}").unwrap();
/// let errors = validate_all(&s);
/// let kinds: Vec<ErrorKind> = errors.iter().map(|e| e.kind()).collect();
/// assert_eq!(kinds, [ErrorKind::MinorToMajorDuplicate, ErrorKind::TailPaddingNotPositive]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorList {
    errors: [Option<Error>; MAX_ERRORS],
    len: usize,
    dropped: usize,
}

impl ErrorList {
    pub(crate) const fn new() -> ErrorList {
        ErrorList {
            errors: [None; MAX_ERRORS],
            len: 0,
            dropped: 0,
        }
    }

    const fn push(&mut self, e: Error) {
        if self.len < MAX_ERRORS {
            self.errors[self.len] = Some(e);
            self.len += 1;
        } else {
            self.dropped += 1;
        }
    }

    /// Number of errors kept (at most [`MAX_ERRORS`]).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, validate_all};
    /// let s = parse_array_unvalidated("f32[2,3]{1,1:T(0,2)S(200)}").unwrap();
    /// assert_eq!(validate_all(&s).len(), 3);
    /// ```
    pub const fn len(&self) -> usize {
        self.len
    }

    /// `true` when the shape is valid.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, validate_all};
    /// assert!(validate_all(&parse_array_unvalidated("f32[2,3]{0,1}").unwrap()).is_empty());
    /// assert!(!validate_all(&parse_array_unvalidated("f32[2,3]{0,0}").unwrap()).is_empty());
    /// ```
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Errors found beyond the capacity (not kept).
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, validate_all};
    /// // Twenty zero tile entries: twenty errors, sixteen kept.
    /// let text = format!("f32[2]{{0:T({})}}", vec!["0"; 20].join(","));
    /// let errors = validate_all(&parse_array_unvalidated(&text).unwrap());
    /// assert_eq!(errors.len(), 16);
    /// assert_eq!(errors.dropped(), 4);
    /// ```
    pub const fn dropped(&self) -> usize {
        self.dropped
    }

    /// The first error, if any: the one [`validate`](crate::validate)
    /// returns.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, validate, validate_all, ErrorKind};
    /// let s = parse_array_unvalidated("f32[2,3]{1,1:T(0,2)S(200)}").unwrap();
    /// let first = validate_all(&s).first().unwrap();
    /// assert_eq!(first.kind(), ErrorKind::MinorToMajorDuplicate);
    /// assert_eq!(validate(&s).unwrap_err(), first);
    /// ```
    pub const fn first(&self) -> Option<Error> {
        self.errors[0]
    }

    /// Error `i`, or `None` past [`ErrorList::len`].
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, validate_all};
    /// let s = parse_array_unvalidated("f32[2,3]{1,1:T(0,2)S(200)}").unwrap();
    /// let errors = validate_all(&s);
    /// assert_eq!(
    ///     errors.get(2).unwrap().to_string(),
    ///     "S(200): memory space must be in 0..=127"
    /// );
    /// assert_eq!(errors.get(3), None);
    /// ```
    pub const fn get(&self, i: usize) -> Option<Error> {
        if i < self.len {
            self.errors[i]
        } else {
            None
        }
    }

    /// The errors in order.
    ///
    /// ```
    /// # use layout_core as xla_layout;
    /// use xla_layout::{parse_array_unvalidated, validate_all};
    /// let s = parse_array_unvalidated("f32[2,3]{1,1:T(0,2)S(200)}").unwrap();
    /// let messages: Vec<String> = validate_all(&s).iter().map(|e| e.to_string()).collect();
    /// assert_eq!(messages, [
    ///     "minor_to_major lists dimension 1 twice (positions 0 and 1)",
    ///     "tile 0 entry 0 is 0; tile sizes must be at least 1",
    ///     "S(200): memory space must be in 0..=127",
    /// ]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Error> + '_ {
        self.errors.iter().take(self.len).flatten().copied()
    }
}

/// Where rule groups report. With `first_only`, the first report stops
/// the run: every group returns as soon as [`Collector::done`] is true.
pub(crate) struct Collector {
    pub list: ErrorList,
    first_only: bool,
}

impl Collector {
    pub(crate) const fn new(first_only: bool) -> Collector {
        Collector {
            list: ErrorList::new(),
            first_only,
        }
    }

    /// Records an error.
    pub(crate) const fn report(&mut self, e: Error) {
        self.list.push(e);
    }

    /// `true` when no further rule needs to run.
    pub(crate) const fn done(&self) -> bool {
        self.first_only && !self.list.is_empty()
    }
}

/// Reports an error and returns from the rule group (with `$ret`, if
/// given) when the collector is done.
macro_rules! report {
    ($c:ident, $e:expr) => {{
        $c.report($e);
        if $c.done() {
            return;
        }
    }};
    ($c:ident, $e:expr, $ret:expr) => {{
        $c.report($e);
        if $c.done() {
            return $ret;
        }
    }};
}
pub(crate) use report;
