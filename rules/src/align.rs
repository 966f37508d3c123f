//! An operand's dims placed in the output's frame: the arithmetic every
//! broadcasting rule shares (numpy's right alignment, Paddle's placement at
//! an axis, dims that run past the end).

/// An operand of rank `rank` placed in a frame (the output's positions): its
/// dim `j` sits at position `at + j` for `j < kept`; its dims `kept..rank`
/// fall past the frame's end (a rule decides whether that is allowed).
///
/// ```
/// use shapecheck_rules::align::Placed;
/// // [A, B] at position 1 of a rank-3 frame: A at 1, B at 2
/// let p = Placed::at(3, 1, 2);
/// assert_eq!((p.dim_at(0), p.dim_at(1), p.dim_at(2)), (None, Some(0), Some(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// The frame position of the operand's first dim.
    pub at: usize,
    /// How many of its dims fall inside the frame.
    pub kept: usize,
    /// The operand's rank.
    pub rank: usize,
}

impl Placed {
    /// An operand of rank `rank` whose first dim is at position `at` of a
    /// frame of rank `frame`; the dims past the frame's end are not kept.
    ///
    /// ```
    /// use shapecheck_rules::align::Placed;
    /// // [A, B, C] at position 2 of a rank-3 frame: only A fits
    /// assert_eq!(Placed::at(3, 2, 3).kept, 1);
    /// assert_eq!(Placed::at(3, 0, 2).kept, 2);
    /// ```
    #[must_use]
    pub const fn at(frame: usize, at: usize, rank: usize) -> Placed {
        let room = frame.saturating_sub(at);
        let kept = if rank < room { rank } else { room };
        Placed { at, kept, rank }
    }

    /// An operand of rank `rank` right-aligned in a frame of rank `frame`
    /// (numpy): its last dim at the frame's last position.
    ///
    /// ```
    /// use shapecheck_rules::align::Placed;
    /// assert_eq!(Placed::right(3, 1), Placed { at: 2, kept: 1, rank: 1 });
    /// assert_eq!(Placed::right(2, 0).at, 2); // a scalar has no dim
    /// ```
    #[must_use]
    pub const fn right(frame: usize, rank: usize) -> Placed {
        Placed::at(frame, frame.saturating_sub(rank), rank)
    }

    /// The operand's dim at frame position `position`, `None` where it has
    /// none (before its first dim, past its last kept one).
    ///
    /// ```
    /// use shapecheck_rules::align::Placed;
    /// let p = Placed::right(3, 2);
    /// assert_eq!([p.dim_at(0), p.dim_at(1), p.dim_at(2)], [None, Some(0), Some(1)]);
    /// ```
    #[must_use]
    pub const fn dim_at(self, position: usize) -> Option<usize> {
        if position < self.at {
            return None;
        }
        let j = position - self.at;
        if j < self.kept {
            Some(j)
        } else {
            None
        }
    }

    /// `true` if the operand's dim `j` falls past the frame's end (a rule
    /// that allows it requires such dims to be 1).
    ///
    /// ```
    /// use shapecheck_rules::align::Placed;
    /// let p = Placed::at(3, 2, 2);
    /// assert!(!p.drops(0) && p.drops(1) && !p.drops(2));
    /// ```
    #[must_use]
    pub const fn drops(self, j: usize) -> bool {
        j >= self.kept && j < self.rank
    }
}

/// The rank of the frame the operands of `ranks` are right-aligned in: the
/// largest (0 for none).
///
/// ```
/// use shapecheck_rules::align::frame_rank;
/// assert_eq!(frame_rank(&[2, 0, 3]), 3);
/// assert_eq!(frame_rank(&[]), 0);
/// ```
#[must_use]
pub const fn frame_rank(ranks: &[usize]) -> usize {
    let mut r = 0;
    let mut rest = ranks;
    while let [first, tail @ ..] = rest {
        if *first > r {
            r = *first;
        }
        rest = tail;
    }
    r
}
