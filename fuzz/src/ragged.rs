//! Naive references of the ops whose output rows depend on values:
//! TensorFlow's dynamic_stitch / dynamic_partition (op-semantics §4), Paddle's
//! `CheckLoD` and lengths-to-offsets conversion, and `lod_reset`
//! (op-semantics §5). Written from the spec and the library's documented
//! error order, without the library's code: plain `Vec`s, `i128` arithmetic,
//! one loop per rule. Each returns the output or the error the library must
//! give, as a plain enum ([`Shape`] for the shared shape errors) that the
//! targets compare with the library's typed error, field by field.

use crate::reference::{count, MAX_RANK};

/// The shared shape errors, as the dynamic path reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// More than 8 dims.
    Rank(usize),
    /// The element count of these dims overflows `usize`.
    Overflow(Vec<usize>),
    /// These dims count `numel` elements, the data holds `len`.
    Length {
        dims: Vec<usize>,
        numel: usize,
        len: usize,
    },
}

/// The library's `Dims::for_data` rule, restated: rank, count, length.
pub fn for_data(dims: &[usize], len: usize) -> Result<(), Shape> {
    if dims.len() > MAX_RANK {
        return Err(Shape::Rank(dims.len()));
    }
    let numel = count(dims).ok_or_else(|| Shape::Overflow(dims.to_vec()))?;
    if numel != len {
        return Err(Shape::Length {
            dims: dims.to_vec(),
            numel,
            len,
        });
    }
    Ok(())
}

// ---------------------------------------------------------------- stitch

/// One `(indices, data)` pair with its index values widened.
#[derive(Clone, Debug)]
pub struct Pair<T> {
    pub indices_dims: Vec<usize>,
    pub indices: Vec<i64>,
    pub data_dims: Vec<usize>,
    pub data: Vec<T>,
}

/// Why dynamic_stitch rejects its pairs (the library's `StitchError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StitchErr {
    NoPairs,
    Shape(Shape),
    Negative {
        m: usize,
        j: usize,
        value: i64,
    },
    Prefix {
        m: usize,
        indices: Vec<usize>,
        data: Vec<usize>,
    },
    Slice {
        m: usize,
        data0: Vec<usize>,
        rank0: usize,
        data: Vec<usize>,
        rank: usize,
    },
    TooManyRows {
        m: usize,
        j: usize,
        value: i64,
        slice: Vec<usize>,
    },
    Buffer {
        dims: Vec<usize>,
        needed: usize,
        len: usize,
    },
    PartitionPrefix {
        partitions: Vec<usize>,
        data: Vec<usize>,
    },
    PartitionOutOfRange {
        position: usize,
        value: i64,
        num: usize,
    },
    NoPartitions,
}

/// dynamic_stitch's output dims (TensorFlow's kernel, checked in its order:
/// lengths, negative indices, then per pair the prefix and the slice, then
/// the output's rank and row count). `rows = max + 1` must fit `usize`, and
/// so must the output's element count.
pub fn stitch_dims<T>(pairs: &[Pair<T>]) -> Result<Vec<usize>, StitchErr> {
    for p in pairs {
        for_data(&p.indices_dims, p.indices.len()).map_err(StitchErr::Shape)?;
        for_data(&p.data_dims, p.data.len()).map_err(StitchErr::Shape)?;
    }
    let first = pairs.first().ok_or(StitchErr::NoPairs)?;
    let mut max: Option<(usize, usize, i64)> = None;
    for (m, p) in pairs.iter().enumerate() {
        for (j, &value) in p.indices.iter().enumerate() {
            if value < 0 {
                return Err(StitchErr::Negative { m, j, value });
            }
            // the first place the largest value occurs
            if max.is_none_or(|(_, _, v)| value > v) {
                max = Some((m, j, value));
            }
        }
    }
    let slice0 = &first.data_dims[first.indices_dims.len().min(first.data_dims.len())..];
    for (m, p) in pairs.iter().enumerate() {
        let r = p.indices_dims.len();
        if p.data_dims.len() < r || p.data_dims[..r] != p.indices_dims[..] {
            return Err(StitchErr::Prefix {
                m,
                indices: p.indices_dims.clone(),
                data: p.data_dims.clone(),
            });
        }
        if &p.data_dims[r..] != slice0 {
            return Err(StitchErr::Slice {
                m,
                data0: first.data_dims.clone(),
                rank0: first.indices_dims.len(),
                data: p.data_dims.clone(),
                rank: r,
            });
        }
    }
    let rows: u128 = match max {
        None => 0,
        Some((_, _, v)) => v as u128 + 1,
    };
    if slice0.len() + 1 > MAX_RANK {
        return Err(StitchErr::Shape(Shape::Rank(slice0.len() + 1)));
    }
    let too_many = |(m, j, value): (usize, usize, i64)| StitchErr::TooManyRows {
        m,
        j,
        value,
        slice: slice0.to_vec(),
    };
    let Ok(rows) = usize::try_from(rows) else {
        return Err(too_many(max.unwrap()));
    };
    let mut out = vec![rows];
    out.extend_from_slice(slice0);
    if count(&out).is_none() {
        return Err(too_many(max.unwrap()));
    }
    Ok(out)
}

/// dynamic_stitch's values: zeros, then row `indices[m][j]` takes slice `j`
/// of `data[m]`, in order, so the later of equal indices wins.
pub fn stitch_values<T: Copy + Default>(pairs: &[Pair<T>], out_dims: &[usize]) -> Vec<T> {
    // a slice whose count overflows only comes with 0 rows
    let slice = count(&out_dims[1..]).unwrap_or(0);
    let mut out = vec![T::default(); count(out_dims).unwrap()];
    if slice == 0 {
        return out;
    }
    for p in pairs {
        for (j, &v) in p.indices.iter().enumerate() {
            let row = v as usize;
            for k in 0..slice {
                out[row * slice + k] = p.data[j * slice + k];
            }
        }
    }
    out
}

/// dynamic_partition: the outputs (each its dims and values) of `data`
/// split by `partitions` into `num` parts, in TensorFlow's order of checks:
/// at least one partition, the lengths, the prefix, the outputs' rank,
/// every value in `[0, num)` (the first bad one reported).
#[allow(clippy::type_complexity)]
pub fn partition<T: Copy>(
    data_dims: &[usize],
    data: &[T],
    partitions_dims: &[usize],
    partitions: &[i64],
    num: usize,
) -> Result<Vec<(Vec<usize>, Vec<T>)>, StitchErr> {
    if num == 0 {
        return Err(StitchErr::NoPartitions);
    }
    for_data(data_dims, data.len()).map_err(StitchErr::Shape)?;
    for_data(partitions_dims, partitions.len()).map_err(StitchErr::Shape)?;
    let r = partitions_dims.len();
    if data_dims.len() < r || data_dims[..r] != partitions_dims[..] {
        return Err(StitchErr::PartitionPrefix {
            partitions: partitions_dims.to_vec(),
            data: data_dims.to_vec(),
        });
    }
    let slice = &data_dims[r..];
    if slice.len() + 1 > MAX_RANK {
        return Err(StitchErr::Shape(Shape::Rank(slice.len() + 1)));
    }
    for (position, &value) in partitions.iter().enumerate() {
        if value < 0 || value as u128 >= num as u128 {
            return Err(StitchErr::PartitionOutOfRange {
                position,
                value,
                num,
            });
        }
    }
    // every slice holds `slice_len` elements; with `slice_len` 0 the data is
    // empty and every output is empty too
    // (a slice whose count overflows only comes with no partition value)
    let slice_len = count(slice).unwrap_or(0);
    let mut outs = Vec::new();
    for i in 0..num {
        let mut values = Vec::new();
        let mut rows = 0;
        for (j, &p) in partitions.iter().enumerate() {
            if p as usize == i {
                rows += 1;
                values.extend_from_slice(&data[j * slice_len..(j + 1) * slice_len]);
            }
        }
        let mut dims = vec![rows];
        dims.extend_from_slice(slice);
        outs.push((dims, values));
    }
    Ok(outs)
}

// ---------------------------------------------------------------- LoD

/// Why a LoD is rejected (the library's `LodError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LodErr {
    TooFew {
        level: usize,
        len: usize,
    },
    NonzeroStart {
        level: usize,
        value: usize,
    },
    Decreasing {
        level: usize,
        position: usize,
        previous: usize,
        value: usize,
    },
    Rows {
        level: usize,
        last: usize,
        rows: usize,
    },
    Nesting {
        level: usize,
        last: usize,
        below: usize,
    },
    Overflow {
        level: usize,
        position: usize,
    },
    Scalar,
    Buffer {
        what: &'static str,
        needed: usize,
        len: usize,
    },
    NoSuchLevel {
        level: usize,
        levels: usize,
    },
}

/// Paddle's `CheckLoD(lod, rows)` (op-semantics §5), the height check
/// applied to 0 rows too: every level on its own (from the top), then the
/// last level's end, then each level's end against the level below.
pub fn check_lod(lod: &[Vec<usize>], rows: usize) -> Result<(), LodErr> {
    for (level, o) in lod.iter().enumerate() {
        if o.len() < 2 {
            return Err(LodErr::TooFew {
                level,
                len: o.len(),
            });
        }
        if o[0] != 0 {
            return Err(LodErr::NonzeroStart { level, value: o[0] });
        }
        for position in 1..o.len() {
            if o[position] < o[position - 1] {
                return Err(LodErr::Decreasing {
                    level,
                    position,
                    previous: o[position - 1],
                    value: o[position],
                });
            }
        }
    }
    let Some(last) = lod.last() else {
        return Ok(());
    };
    if *last.last().unwrap() != rows {
        return Err(LodErr::Rows {
            level: lod.len() - 1,
            last: *last.last().unwrap(),
            rows,
        });
    }
    for level in 0..lod.len() - 1 {
        let end = *lod[level].last().unwrap();
        let below = lod[level + 1].len() - 1;
        if end != below {
            return Err(LodErr::Nesting {
                level,
                last: end,
                below,
            });
        }
    }
    Ok(())
}

/// Paddle's `ConvertToOffsetBasedLoD` for one level: prefix sums from 0;
/// `Err(position)` at the first length whose addition overflows.
pub fn offsets_of(lengths: &[usize]) -> Result<Vec<usize>, usize> {
    let mut out = vec![0usize];
    let mut sum: u128 = 0;
    for (position, &l) in lengths.iter().enumerate() {
        sum += l as u128;
        out.push(usize::try_from(sum).map_err(|_| position)?);
    }
    Ok(out)
}

/// A LoD given as lengths: every level converted (the first overflow
/// reported), then `CheckLoD`.
pub fn lod_of_lengths(lengths: &[Vec<usize>], rows: usize) -> Result<Vec<Vec<usize>>, LodErr> {
    let mut lod = Vec::new();
    for (level, l) in lengths.iter().enumerate() {
        lod.push(offsets_of(l).map_err(|position| LodErr::Overflow { level, position })?);
    }
    check_lod(&lod, rows)?;
    Ok(lod)
}

/// The dense rows sequence `i` of `level` spans: its offsets followed down
/// through the levels below (of a LoD that passed [`check_lod`]).
pub fn row_span(lod: &[Vec<usize>], level: usize, i: usize) -> (usize, usize) {
    let (mut a, mut b) = (lod[level][i], lod[level][i + 1]);
    for o in &lod[level + 1..] {
        a = o[a];
        b = o[b];
    }
    (a, b)
}

// ---------------------------------------------------------------- lod_reset

/// y as `lod_reset` receives it.
#[derive(Clone, Debug)]
pub enum Y {
    /// y carries a LoD: its levels.
    Lod(Vec<Vec<usize>>),
    /// y carries no LoD and holds int32 values (any shape, flattened).
    Int32(Vec<i32>),
    /// y carries no LoD and holds another type.
    Other(&'static str),
}

/// Where the new level came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Target,
    YData,
}

/// Why `lod_reset` refuses (the library's `LodResetError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResetErr {
    NoSource,
    YLodRows {
        last: usize,
        rows: usize,
    },
    YNotInt32(&'static str),
    TooShort {
        source: Source,
        len: usize,
    },
    BadStart {
        source: Source,
        value: i128,
    },
    BadEnd {
        source: Source,
        position: usize,
        last: i128,
        rows: usize,
    },
    Decreasing {
        source: Source,
        position: usize,
        previous: i128,
        value: i128,
    },
    Buffer {
        needed: usize,
        len: usize,
    },
}

/// Paddle's `lod_reset(x, y, target_lod, append)` kernel (op-semantics §5)
/// on an x of `rows` rows with levels `x_lod`: the output's levels.
pub fn lod_reset(
    rows: usize,
    x_lod: &[Vec<usize>],
    y: Option<&Y>,
    target: Option<&[usize]>,
    append: bool,
) -> Result<Vec<Vec<usize>>, ResetErr> {
    let (source, level): (Source, Vec<i128>) = match (y, target) {
        (Some(Y::Lod(levels)), _) => {
            let last = *levels.last().unwrap().last().unwrap();
            if last != rows {
                return Err(ResetErr::YLodRows { last, rows });
            }
            return Ok(levels.clone());
        }
        (Some(Y::Other(dtype)), _) => return Err(ResetErr::YNotInt32(dtype)),
        (Some(Y::Int32(v)), _) => (Source::YData, v.iter().map(|&x| x as i128).collect()),
        (None, Some(t)) => (Source::Target, t.iter().map(|&x| x as i128).collect()),
        (None, None) => return Err(ResetErr::NoSource),
    };
    if level.len() <= 1 {
        return Err(ResetErr::TooShort {
            source,
            len: level.len(),
        });
    }
    if level[0] != 0 {
        return Err(ResetErr::BadStart {
            source,
            value: level[0],
        });
    }
    let n = level.len();
    if level[n - 1] != rows as i128 {
        return Err(ResetErr::BadEnd {
            source,
            position: n - 1,
            last: level[n - 1],
            rows,
        });
    }
    for position in 1..n {
        if level[position] < level[position - 1] {
            return Err(ResetErr::Decreasing {
                source,
                position,
                previous: level[position - 1],
                value: level[position],
            });
        }
    }
    let new: Vec<usize> = level.iter().map(|&v| v as usize).collect();
    let mut out = if append { x_lod.to_vec() } else { Vec::new() };
    out.push(new);
    Ok(out)
}

// ---------------------------------------------------------------- projections

/// The library's shape error as a [`Shape`]; `None` for a variant the
/// dynamic path of these ops never gives.
pub fn shape_of(e: &shapecheck::ShapeError) -> Option<Shape> {
    use shapecheck::ShapeError as E;
    Some(match *e {
        E::RankTooLarge { rank } => Shape::Rank(rank),
        E::NumelOverflow { shape } => Shape::Overflow(shape.as_slice().to_vec()),
        E::DataLength { shape, numel, len } => Shape::Length {
            dims: shape.as_slice().to_vec(),
            numel,
            len,
        },
        _ => return None,
    })
}

/// The library's `StitchError` as a [`StitchErr`], to compare with the
/// reference's verdict; panics on a variant these ops must not give.
pub fn stitch_err(e: &shapecheck::StitchError) -> StitchErr {
    use shapecheck::StitchError as E;
    let v = |d: &shapecheck::Dims| d.as_slice().to_vec();
    match e {
        E::NoPairs => StitchErr::NoPairs,
        E::PrefixMismatch { m, indices, data } => StitchErr::Prefix {
            m: *m,
            indices: v(indices),
            data: v(data),
        },
        E::SliceMismatch {
            m,
            data0,
            rank0,
            data,
            rank,
        } => StitchErr::Slice {
            m: *m,
            data0: v(data0),
            rank0: *rank0,
            data: v(data),
            rank: *rank,
        },
        E::NegativeIndex { m, j, value } => StitchErr::Negative {
            m: *m,
            j: *j,
            value: *value,
        },
        E::TooManyRows { m, j, value, slice } => StitchErr::TooManyRows {
            m: *m,
            j: *j,
            value: *value,
            slice: v(slice),
        },
        E::PartitionPrefix { partitions, data } => StitchErr::PartitionPrefix {
            partitions: v(partitions),
            data: v(data),
        },
        E::PartitionOutOfRange {
            position,
            value,
            num,
        } => StitchErr::PartitionOutOfRange {
            position: *position,
            value: *value,
            num: *num,
        },
        E::NoPartitions => StitchErr::NoPartitions,
        E::BufferTooSmall { dims, needed, len } => StitchErr::Buffer {
            dims: v(dims),
            needed: *needed,
            len: *len,
        },
        E::Shape(s) => StitchErr::Shape(shape_of(s).unwrap_or_else(|| panic!("unexpected {e:?}"))),
        _ => panic!("unexpected variant {e:?}"),
    }
}

/// The library's `LodError` as a [`LodErr`].
pub fn lod_err(e: &shapecheck::LodError) -> LodErr {
    use shapecheck::LodError as E;
    match *e {
        E::TooFewOffsets { level, len } => LodErr::TooFew { level, len },
        E::NonzeroStart { level, value } => LodErr::NonzeroStart { level, value },
        E::Decreasing {
            level,
            position,
            previous,
            value,
        } => LodErr::Decreasing {
            level,
            position,
            previous,
            value,
        },
        E::RowsMismatch { level, last, rows } => LodErr::Rows { level, last, rows },
        E::LevelMismatch { level, last, below } => LodErr::Nesting { level, last, below },
        E::LengthOverflow { level, position } => LodErr::Overflow { level, position },
        E::ScalarDense => LodErr::Scalar,
        E::Buffer { what, needed, len } => LodErr::Buffer { what, needed, len },
        E::NoSuchLevel { level, levels } => LodErr::NoSuchLevel { level, levels },
        _ => panic!("unexpected variant {e:?}"),
    }
}

/// The library's `LodResetError` as a [`ResetErr`].
pub fn reset_err(e: &shapecheck::LodResetError) -> ResetErr {
    use shapecheck::LevelSource;
    use shapecheck::LodResetError as E;
    let src = |s: LevelSource| match s {
        LevelSource::Target => Source::Target,
        LevelSource::YData => Source::YData,
    };
    match *e {
        E::NoSource => ResetErr::NoSource,
        E::YLodRows { last, rows } => ResetErr::YLodRows { last, rows },
        E::YNotInt32 { dtype } => ResetErr::YNotInt32(dtype),
        E::TooShort { source, len } => ResetErr::TooShort {
            source: src(source),
            len,
        },
        E::BadStart { source, value } => ResetErr::BadStart {
            source: src(source),
            value,
        },
        E::BadEnd {
            source,
            position,
            last,
            rows,
        } => ResetErr::BadEnd {
            source: src(source),
            position,
            last,
            rows,
        },
        E::Decreasing {
            source,
            position,
            previous,
            value,
        } => ResetErr::Decreasing {
            source: src(source),
            position,
            previous,
            value,
        },
        E::Buffer { needed, len } => ResetErr::Buffer { needed, len },
        _ => panic!("unexpected variant {e:?}"),
    }
}
