//! One conformance case through one API form, as a macro (the static API
//! needs the shapes as types, which the test writes) or a function (the
//! no-heap dynamic path, shapes as values). Each checks that the case is the
//! op / attributes the test calls, runs it, and compares with the recorded
//! output.

/// An elementwise case through the static API, three ways: views over the
/// vector's flash data into a caller's stack buffer (`_into`, the no-heap
/// form), views to an inline result, inline operands to an inline result.
/// The output type must be the one the test names (a compile error if not).
///
/// `elementwise_case!(c, CASE: T, method / method_into, x [..], y [..] -> [..],
/// axis N, act Act = "name", tol TOL)`; `"name"` is "" for a case without `act`.
#[macro_export]
macro_rules! elementwise_case {
    ($c:ident, $case:ident : $T:ty, $method:ident / $method_into:ident,
     x [$($x:tt)*], y [$($y:tt)*] -> [$($o:tt)*], axis $axis:literal,
     act $act:ident = $act_name:literal, tol $tol:expr) => {{
        type X = ::shapecheck::shape![$($x)*];
        type Y = ::shapecheck::shape![$($y)*];
        type O = ::shapecheck::shape![$($o)*];
        let what = stringify!($case);
        $c.check(
            $case::OP == stringify!($method)
                && $case::AXIS == $axis
                && $crate::attr($case::ATTRS, "act").unwrap_or("") == $act_name
                && $case::ERROR.is_none()
                && $case::OUT.dims == <O as ::shapecheck::FixedShape>::DIMS,
            what,
        );
        let want: &[$T] = $case::OUT.data;
        let x = $c.some($case::X.view::<X>(), what);
        let y = $c.some($case::Y.view::<Y>(), what);
        if let (Some(x), Some(y)) = (x, y) {
            let mut buf = [<$T as Default>::default(); <O as ::shapecheck::FixedShape>::NUMEL];
            match ::shapecheck::Tensor::<$T, O, &mut [$T]>::from_storage(&mut buf[..]) {
                Ok(mut out) => {
                    let r = x.$method_into(&y, ::shapecheck::Axis::<{ $axis }>, ::shapecheck::$act, &mut out);
                    $c.check($crate::Outcome::outcome(r).is_some(), what);
                }
                Err(_) => $c.check(false, what),
            }
            $c.approx(&buf, want, $tol, what);
            match $crate::Outcome::outcome(x.$method(&y, ::shapecheck::Axis::<{ $axis }>, ::shapecheck::$act)) {
                Some(z) => $c.approx(z.as_slice(), want, $tol, what),
                None => $c.check(false, what),
            }
        }
        let xi = $c.some($case::X.inline::<X>(), what);
        let yi = $c.some($case::Y.inline::<Y>(), what);
        if let (Some(x), Some(y)) = (xi, yi) {
            match $crate::Outcome::outcome(x.$method(&y, ::shapecheck::Axis::<{ $axis }>, ::shapecheck::$act)) {
                Some(z) => $c.approx(z.as_slice(), want, $tol, what),
                None => $c.check(false, what),
            }
        }
    }};
}

/// A select case through the static API: views over flash into a caller's
/// buffer (`select_into`), views to an inline result (`select`), inline
/// operands.
///
/// `select_case!(c, CASE: T, cond [..], then [..], else [..] -> [..], mode MODE = "name" axis "a")`
/// (`axis "none"` for a case without an axis attribute).
#[macro_export]
macro_rules! select_case {
    ($c:ident, $case:ident : $T:ty, cond [$($cd:tt)*], then [$($td:tt)*], else [$($ed:tt)*]
     -> [$($o:tt)*], mode $mode:expr => $mode_name:literal axis $axis:literal) => {{
        type C = ::shapecheck::shape![$($cd)*];
        type TH = ::shapecheck::shape![$($td)*];
        type E = ::shapecheck::shape![$($ed)*];
        type O = ::shapecheck::shape![$($o)*];
        let what = stringify!($case);
        $c.check(
            $case::OP == "select"
                && $crate::attr($case::ATTRS, "auto_broadcast") == Some($mode_name)
                && $crate::attr($case::ATTRS, "axis").unwrap_or("none") == $axis
                && $case::ERROR.is_none()
                && $case::OUT.dims == <O as ::shapecheck::FixedShape>::DIMS,
            what,
        );
        let want: &[$T] = $case::OUT.data;
        let cond = $c.some($case::COND.view::<C>(), what);
        let then = $c.some($case::THEN.view::<TH>(), what);
        let els = $c.some($case::ELSE.view::<E>(), what);
        if let (Some(cond), Some(then), Some(els)) = (cond, then, els) {
            let mut buf = [<$T as Default>::default(); <O as ::shapecheck::FixedShape>::NUMEL];
            match ::shapecheck::Tensor::<$T, O, &mut [$T]>::from_storage(&mut buf[..]) {
                Ok(mut out) => ::shapecheck::select_into(&cond, &then, &els, $mode, &mut out),
                Err(_) => $c.check(false, what),
            }
            $c.approx(&buf, want, 0.0, what);
            let z = ::shapecheck::select(&cond, &then, &els, $mode);
            $c.approx(z.as_slice(), want, 0.0, what);
        }
        let cond = $c.some($case::COND.inline::<C>(), what);
        let then = $c.some($case::THEN.inline::<TH>(), what);
        let els = $c.some($case::ELSE.inline::<E>(), what);
        if let (Some(cond), Some(then), Some(els)) = (cond, then, els) {
            let z = ::shapecheck::select(&cond, &then, &els, $mode);
            $c.approx(z.as_slice(), want, 0.0, what);
        }
    }};
}

/// A multiplex case through the static API: `K` candidate views over flash
/// and the index view, into a caller's buffer and to an inline result. An
/// accepted case gives OUT; a rejected one (index values: out of range,
/// negative) gives an error matching `err`, both forms, and leaves the
/// caller's buffer untouched.
///
/// `multiplex_case!(c, CASE: T, K x [..], index [..] -> [..])` or
/// `multiplex_case!(c, CASE: T, K x [..], index [..] -> Err(PATTERN))`.
#[macro_export]
macro_rules! multiplex_case {
    ($c:ident, $case:ident : $T:ty, $k:literal x [$($s:tt)*], index [$($i:tt)*] -> [$($o:tt)*]) => {{
        type S = ::shapecheck::shape![$($s)*];
        type I = ::shapecheck::shape![$($i)*];
        type O = ::shapecheck::shape![$($o)*];
        let what = stringify!($case);
        $c.check(
            $case::OP == "multiplex"
                && $case::ERROR.is_none()
                && $case::OUT.dims == <O as ::shapecheck::FixedShape>::DIMS,
            what,
        );
        let want: &[$T] = $case::OUT.data;
        let inputs = $c.some($crate::views::<$T, S, $k>($case::INPUTS), what);
        let index = $c.some($case::INDEX.view::<I>(), what);
        if let (Some(inputs), Some(index)) = (inputs, index) {
            let mut buf = [<$T as Default>::default(); <O as ::shapecheck::FixedShape>::NUMEL];
            match ::shapecheck::Tensor::<$T, O, &mut [$T]>::from_storage(&mut buf[..]) {
                Ok(mut out) => $c.check(::shapecheck::multiplex_into(&inputs, &index, &mut out).is_ok(), what),
                Err(_) => $c.check(false, what),
            }
            $c.approx(&buf, want, 0.0, what);
            match ::shapecheck::multiplex(&inputs, &index).run() {
                Ok(z) => $c.approx(z.as_slice(), want, 0.0, what),
                Err(_) => $c.check(false, what),
            }
        }
    }};
    ($c:ident, $case:ident : $T:ty, $k:literal x [$($s:tt)*], index [$($i:tt)*] -> Err($err:pat)) => {{
        type S = ::shapecheck::shape![$($s)*];
        type I = ::shapecheck::shape![$($i)*];
        let what = stringify!($case);
        $c.check($case::OP == "multiplex" && $case::ERROR.is_some(), what);
        let inputs = $c.some($crate::views::<$T, S, $k>($case::INPUTS), what);
        let index = $c.some($case::INDEX.view::<I>(), what);
        if let (Some(inputs), Some(index)) = (inputs, index) {
            let sentinel = <$T as $crate::Sentinel>::SENTINEL;
            let mut buf = [sentinel; <S as ::shapecheck::FixedShape>::NUMEL];
            match ::shapecheck::Tensor::<$T, S, &mut [$T]>::from_storage(&mut buf[..]) {
                Ok(mut out) => $c.check(
                    matches!(::shapecheck::multiplex_into(&inputs, &index, &mut out), Err($err)),
                    what,
                ),
                Err(_) => $c.check(false, what),
            }
            $c.check(buf.iter().all(|v| *v == sentinel), what);
            $c.check(matches!(::shapecheck::multiplex(&inputs, &index).run(), Err($err)), what);
        }
    }};
}

/// A value no vector holds, to see that an erroring call wrote nothing.
pub trait Sentinel: Copy + PartialEq {
    /// The value.
    const SENTINEL: Self;
}
impl Sentinel for f32 {
    const SENTINEL: f32 = -12345.5;
}
impl Sentinel for f64 {
    const SENTINEL: f64 = -12345.5;
}
impl Sentinel for i32 {
    const SENTINEL: i32 = -12345;
}
impl Sentinel for i64 {
    const SENTINEL: i64 = -12345;
}
