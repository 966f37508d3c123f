//! The FlatBuffers binary layout, read with every offset checked.
//!
//! What a `.tflite` file uses of it:
//! - the file starts with a `u32` offset to the root table, then the file
//!   identifier (4 bytes, `TFL3`);
//! - a table starts with an `i32`: the table's position minus that value is
//!   its vtable; the vtable holds its own size in bytes (`u16`), the size of
//!   the table's inline data (`u16`), then one `u16` per field: the field's
//!   position relative to the table's start, or 0 when the field is absent
//!   (its default applies), as is every field past the vtable's end;
//! - a field that refers to a table, a vector or a string holds a `u32`
//!   offset, relative to the field's own position, to its target;
//! - a vector (and a string) is a `u32` element count then the elements;
//!   a vector of tables holds one `u32` offset per element, each relative
//!   to its own position;
//! - every number is little-endian.
//!
//! Nothing here trusts a number read from the file: every position is
//! computed with checked arithmetic and every read goes through
//! [`bytes_at`], which fails with a [`Fault`] instead of reading past the end.

/// What went wrong at the lowest level, before the reader knows which
/// tensor or operator it was reading (the caller adds that).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// `size` bytes at `offset` run past the end of the file (`offset` may
    /// itself be past the end, or not representable: then it is `usize::MAX`).
    OutOfBounds { offset: usize, size: usize },
    /// The vtable of the table at `table` is not a vtable: it lies outside
    /// the file, or its sizes are impossible.
    BadVtable { table: usize, vtable: i64 },
    /// A field at `offset` lies outside its table's inline data.
    FieldOutsideTable { table: usize, offset: usize },
    /// A string at `offset` is not UTF-8.
    NotUtf8 { offset: usize },
}

/// `size` bytes of `buf` at `offset`, or the fault naming them.
pub(crate) fn bytes_at(buf: &[u8], offset: usize, size: usize) -> Result<&[u8], Fault> {
    let end = offset
        .checked_add(size)
        .ok_or(Fault::OutOfBounds { offset, size })?;
    buf.get(offset..end)
        .ok_or(Fault::OutOfBounds { offset, size })
}

pub(crate) fn u8_at(buf: &[u8], offset: usize) -> Result<u8, Fault> {
    match bytes_at(buf, offset, 1)? {
        &[b] => Ok(b),
        _ => Err(Fault::OutOfBounds { offset, size: 1 }),
    }
}

pub(crate) fn u16_at(buf: &[u8], offset: usize) -> Result<u16, Fault> {
    match bytes_at(buf, offset, 2)? {
        &[a, b] => Ok(u16::from_le_bytes([a, b])),
        _ => Err(Fault::OutOfBounds { offset, size: 2 }),
    }
}

pub(crate) fn u32_at(buf: &[u8], offset: usize) -> Result<u32, Fault> {
    match bytes_at(buf, offset, 4)? {
        &[a, b, c, d] => Ok(u32::from_le_bytes([a, b, c, d])),
        _ => Err(Fault::OutOfBounds { offset, size: 4 }),
    }
}

pub(crate) fn u64_at(buf: &[u8], offset: usize) -> Result<u64, Fault> {
    match bytes_at(buf, offset, 8)? {
        &[a, b, c, d, e, f, g, h] => Ok(u64::from_le_bytes([a, b, c, d, e, f, g, h])),
        _ => Err(Fault::OutOfBounds { offset, size: 8 }),
    }
}

/// The position `offset` bytes after `base` (a `u32` offset read from the
/// file), or a fault if it is not representable.
fn forward(base: usize, offset: u32) -> Result<usize, Fault> {
    usize::try_from(offset)
        .ok()
        .and_then(|o| base.checked_add(o))
        .ok_or(Fault::OutOfBounds {
            offset: usize::MAX,
            size: 0,
        })
}

/// A table: its position, its vtable's position and the two sizes the
/// vtable declares, all checked to lie inside the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table<'a> {
    buf: &'a [u8],
    pos: usize,
    vtable: usize,
    /// the vtable's size in bytes (at least 4)
    vtable_len: usize,
    /// the table's inline data in bytes, from `pos` (at least 4)
    inline_len: usize,
}

impl<'a> Table<'a> {
    /// The table at `pos`, its vtable checked.
    pub(crate) fn at(buf: &'a [u8], pos: usize) -> Result<Self, Fault> {
        let soffset = i64::from(u32_at(buf, pos)? as i32);
        let bad = Fault::BadVtable {
            table: pos,
            vtable: i64::try_from(pos)
                .unwrap_or(i64::MAX)
                .saturating_sub(soffset),
        };
        let vtable = i64::try_from(pos)
            .ok()
            .and_then(|p| p.checked_sub(soffset))
            .and_then(|v| usize::try_from(v).ok())
            .ok_or(bad)?;
        let vtable_len = usize::from(u16_at(buf, vtable).map_err(|_| bad)?);
        let inline_len = usize::from(u16_at(buf, vtable + 2).map_err(|_| bad)?);
        // the vtable's two sizes, then whole u16 slots; the table's own
        // soffset is part of its inline data
        if vtable_len < 4 || !vtable_len.is_multiple_of(2) || inline_len < 4 {
            return Err(bad);
        }
        bytes_at(buf, vtable, vtable_len).map_err(|_| bad)?;
        bytes_at(buf, pos, inline_len)?;
        Ok(Table {
            buf,
            pos,
            vtable,
            vtable_len,
            inline_len,
        })
    }

    /// The position of field `id` if present, checked to hold `size` bytes
    /// inside the table's inline data.
    fn field(&self, id: usize, size: usize) -> Result<Option<usize>, Fault> {
        let slot = 4 + 2 * id;
        if slot + 2 > self.vtable_len {
            return Ok(None);
        }
        let rel = usize::from(u16_at(self.buf, self.vtable + slot)?);
        if rel == 0 {
            return Ok(None);
        }
        if rel < 4 || rel + size > self.inline_len {
            return Err(Fault::FieldOutsideTable {
                table: self.pos,
                offset: self.pos + rel,
            });
        }
        Ok(Some(self.pos + rel))
    }

    pub(crate) fn u8(&self, id: usize, default: u8) -> Result<u8, Fault> {
        match self.field(id, 1)? {
            Some(p) => u8_at(self.buf, p),
            None => Ok(default),
        }
    }

    pub(crate) fn i8(&self, id: usize, default: i8) -> Result<i8, Fault> {
        Ok(self.u8(id, default as u8)? as i8)
    }

    pub(crate) fn bool(&self, id: usize) -> Result<bool, Fault> {
        Ok(self.u8(id, 0)? != 0)
    }

    pub(crate) fn u32(&self, id: usize, default: u32) -> Result<u32, Fault> {
        match self.field(id, 4)? {
            Some(p) => u32_at(self.buf, p),
            None => Ok(default),
        }
    }

    pub(crate) fn i32(&self, id: usize, default: i32) -> Result<i32, Fault> {
        Ok(self.u32(id, default as u32)? as i32)
    }

    pub(crate) fn f32(&self, id: usize, default: f32) -> Result<f32, Fault> {
        Ok(f32::from_bits(self.u32(id, default.to_bits())?))
    }

    pub(crate) fn u64(&self, id: usize, default: u64) -> Result<u64, Fault> {
        match self.field(id, 8)? {
            Some(p) => u64_at(self.buf, p),
            None => Ok(default),
        }
    }

    /// The target of the offset field `id`, if present.
    fn target(&self, id: usize) -> Result<Option<usize>, Fault> {
        match self.field(id, 4)? {
            Some(p) => Ok(Some(forward(p, u32_at(self.buf, p)?)?)),
            None => Ok(None),
        }
    }

    /// The sub-table in field `id`, if present.
    pub(crate) fn table(&self, id: usize) -> Result<Option<Table<'a>>, Fault> {
        match self.target(id)? {
            Some(t) => Ok(Some(Table::at(self.buf, t)?)),
            None => Ok(None),
        }
    }

    /// The vector in field `id` with elements of `elem_size` bytes; an
    /// absent vector is empty.
    pub(crate) fn vector(&self, id: usize, elem_size: usize) -> Result<Vector<'a>, Fault> {
        match self.target(id)? {
            Some(t) => Vector::at(self.buf, t, elem_size),
            None => Ok(Vector::empty(self.buf)),
        }
    }

    /// The string in field `id`, if present.
    pub(crate) fn string(&self, id: usize) -> Result<Option<&'a str>, Fault> {
        match self.target(id)? {
            Some(t) => {
                let v = Vector::at(self.buf, t, 1)?;
                core::str::from_utf8(v.bytes)
                    .map(Some)
                    .map_err(|_| Fault::NotUtf8 { offset: t })
            }
            None => Ok(None),
        }
    }
}

/// A vector: its element count and its elements' bytes, checked to lie
/// inside the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vector<'a> {
    buf: &'a [u8],
    /// where the elements start
    start: usize,
    len: usize,
    bytes: &'a [u8],
}

impl<'a> Vector<'a> {
    fn empty(buf: &'a [u8]) -> Self {
        Vector {
            buf,
            start: 0,
            len: 0,
            bytes: &[],
        }
    }

    fn at(buf: &'a [u8], pos: usize, elem_size: usize) -> Result<Self, Fault> {
        let count = u32_at(buf, pos)?;
        let start = pos + 4;
        let too_long = Fault::OutOfBounds {
            offset: start,
            size: usize::MAX,
        };
        let len = usize::try_from(count).map_err(|_| too_long)?;
        let size = len.checked_mul(elem_size).ok_or(too_long)?;
        let bytes = bytes_at(buf, start, size)?;
        Ok(Vector {
            buf,
            start,
            len,
            bytes,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The elements' bytes.
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Element `i` of a vector of tables.
    pub(crate) fn table(&self, i: usize) -> Result<Table<'a>, Fault> {
        let at = i
            .checked_mul(4)
            .and_then(|o| self.start.checked_add(o))
            .filter(|_| i < self.len)
            .ok_or(Fault::OutOfBounds {
                offset: self.start,
                size: usize::MAX,
            })?;
        let target = forward(at, u32_at(self.buf, at)?)?;
        Table::at(self.buf, target)
    }
}
