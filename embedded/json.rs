//! A small JSON reader for the build scripts (`build.rs`: the conformance
//! vectors; `models/build.rs`: the TinyML models' recorded cases): objects,
//! arrays, strings, numbers (kept as their text), booleans and null, into a
//! tree of [`Value`]s. No crate for the host is needed.

/// A JSON value; numbers keep their text (converted by rustc, exactly).
#[derive(Debug)]
pub enum Value {
    Null,
    Bool(bool),
    Number(String),
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(f) => f.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// Reads a whole JSON document.
pub fn parse(text: &str) -> Result<Value, String> {
    Parser {
        s: text.as_bytes(),
        i: 0,
    }
    .document()
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn document(mut self) -> Result<Value, String> {
        let v = self.value()?;
        self.ws();
        if self.i != self.s.len() {
            return Err(self.err("trailing characters"));
        }
        Ok(v)
    }
    fn err(&self, what: &str) -> String {
        format!("JSON: {what} at byte {}", self.i)
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }
    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.eat("}") {
                    return Ok(Value::Object(fields));
                }
                loop {
                    self.ws();
                    let Value::Str(k) = self.value()? else {
                        return Err(self.err("expected a key"));
                    };
                    self.ws();
                    if !self.eat(":") {
                        return Err(self.err("expected ':'"));
                    }
                    fields.push((k, self.value()?));
                    self.ws();
                    if self.eat("}") {
                        return Ok(Value::Object(fields));
                    }
                    if !self.eat(",") {
                        return Err(self.err("expected ',' or '}'"));
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.eat("]") {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    if self.eat("]") {
                        return Ok(Value::Array(items));
                    }
                    if !self.eat(",") {
                        return Err(self.err("expected ',' or ']'"));
                    }
                }
            }
            Some(b'"') => {
                self.i += 1;
                let mut out = String::new();
                loop {
                    let start = self.i;
                    while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') {
                        self.i += 1;
                    }
                    out.push_str(
                        std::str::from_utf8(&self.s[start..self.i])
                            .map_err(|_| self.err("bad UTF-8"))?,
                    );
                    match self.s.get(self.i) {
                        Some(b'"') => {
                            self.i += 1;
                            return Ok(Value::Str(out));
                        }
                        Some(b'\\') => {
                            let c = *self
                                .s
                                .get(self.i + 1)
                                .ok_or(self.err("unterminated string"))?;
                            self.i += 2;
                            out.push(match c {
                                b'n' => '\n',
                                b't' => '\t',
                                b'r' => '\r',
                                b'b' => '\u{8}',
                                b'f' => '\u{c}',
                                b'u' => {
                                    let hex = self
                                        .s
                                        .get(self.i..self.i + 4)
                                        .ok_or(self.err("short \\u"))?;
                                    self.i += 4;
                                    let code = u32::from_str_radix(
                                        std::str::from_utf8(hex).unwrap_or("x"),
                                        16,
                                    )
                                    .map_err(|_| self.err("bad \\u"))?;
                                    char::from_u32(code).unwrap_or('\u{fffd}')
                                }
                                other => other as char,
                            });
                        }
                        _ => return Err(self.err("unterminated string")),
                    }
                }
            }
            Some(b't') if self.eat("true") => Ok(Value::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Value::Bool(false)),
            Some(b'n') if self.eat("null") => Ok(Value::Null),
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                Ok(Value::Number(
                    String::from_utf8_lossy(&self.s[start..self.i]).into_owned(),
                ))
            }
            _ => Err(self.err("unexpected character")),
        }
    }
}
