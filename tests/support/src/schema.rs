//! A small JSON Schema checker for the schemas under `docs/schema/`: the
//! keywords they use and no more. A keyword it does not know fails the
//! check, so a schema can never pass by saying what is not checked.

use serde_json::{Map, Value};

/// The keywords checked. The annotations (`$schema`, `$id`, `title`,
/// `description`, `$defs`, `$comment`) say nothing about a value.
const KEYWORDS: &[&str] = &[
    "$ref",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "oneOf",
    "anyOf",
];
const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "title",
    "description",
    "$defs",
    "$comment",
];

const NOTHING_ALLOWED: &str = "nothing is allowed here";

/// A schema document, and checks of values against it or its `$defs`.
pub struct Schema {
    root: Value,
}

impl Schema {
    pub fn new(root: Value) -> Schema {
        Schema { root }
    }

    /// Reads the schema at `path`.
    pub fn load(path: &std::path::Path) -> Schema {
        let text =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let root = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        Schema::new(root)
    }

    /// Does `value` satisfy the whole schema? `Err` says where it does not.
    pub fn check(&self, value: &Value) -> Result<(), String> {
        self.against(&self.root, value, "$")
    }

    /// Does `value` satisfy `#/$defs/NAME`?
    pub fn check_def(&self, name: &str, value: &Value) -> Result<(), String> {
        let def = self.resolve(&format!("#/$defs/{name}"));
        self.against(def, value, "$")
    }

    fn resolve(&self, reference: &str) -> &Value {
        let pointer = reference
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("only local references are read: {reference}"));
        self.root
            .pointer(pointer)
            .unwrap_or_else(|| panic!("no {reference} in the schema"))
    }

    fn against(&self, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
        let schema = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => return Err(format!("{at}: {NOTHING_ALLOWED}")),
            Value::Object(schema) => schema,
            _ => panic!("a schema is an object or a boolean, at {at}"),
        };
        for key in schema.keys() {
            assert!(
                KEYWORDS.contains(&key.as_str()) || ANNOTATIONS.contains(&key.as_str()),
                "the checker does not know the keyword `{key}` (at {at})"
            );
        }
        if let Some(Value::String(reference)) = schema.get("$ref") {
            self.against(self.resolve(reference), value, at)?;
        }
        if let Some(kind) = schema.get("type") {
            let kinds: Vec<&str> = match kind {
                Value::String(k) => vec![k.as_str()],
                Value::Array(ks) => ks.iter().filter_map(Value::as_str).collect(),
                _ => panic!("`type` is a string or a list, at {at}"),
            };
            if !kinds.iter().any(|k| is_kind(value, k)) {
                return Err(format!("{at}: {value} is not {}", kinds.join(" or ")));
            }
        }
        if let Some(want) = schema.get("const")
            && want != value
        {
            return Err(format!("{at}: {value} is not {want}"));
        }
        if let Some(Value::Array(allowed)) = schema.get("enum")
            && !allowed.contains(value)
        {
            return Err(format!("{at}: {value} is not one of the values allowed"));
        }
        if let Value::Object(object) = value {
            self.object(schema, object, at)?;
        }
        if let Value::Array(items) = value {
            self.array(schema, items, at)?;
        }
        if let Some(n) = value.as_f64() {
            if let Some(min) = schema.get("minimum").and_then(Value::as_f64)
                && n < min
            {
                return Err(format!("{at}: {n} is under {min}"));
            }
            if let Some(max) = schema.get("maximum").and_then(Value::as_f64)
                && n > max
            {
                return Err(format!("{at}: {n} is over {max}"));
            }
        }
        if let Some(Value::Array(choices)) = schema.get("oneOf") {
            let fits: Vec<Result<(), String>> = choices
                .iter()
                .map(|choice| self.against(choice, value, at))
                .collect();
            match fits.iter().filter(|f| f.is_ok()).count() {
                1 => {}
                0 => return Err(closest(fits, at)),
                n => return Err(format!("{at}: {value} fits {n} of oneOf, not one")),
            }
        }
        if let Some(Value::Array(choices)) = schema.get("anyOf") {
            let fits: Vec<Result<(), String>> = choices
                .iter()
                .map(|choice| self.against(choice, value, at))
                .collect();
            if !fits.iter().any(Result::is_ok) {
                return Err(closest(fits, at));
            }
        }
        Ok(())
    }

    fn object(
        &self,
        schema: &Map<String, Value>,
        object: &Map<String, Value>,
        at: &str,
    ) -> Result<(), String> {
        if let Some(Value::Array(required)) = schema.get("required") {
            for key in required.iter().filter_map(Value::as_str) {
                if !object.contains_key(key) {
                    return Err(format!("{at}: no key `{key}`"));
                }
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (key, item) in object {
            let here = format!("{at}.{key}");
            match properties.and_then(|p| p.get(key)) {
                Some(property) => self.against(property, item, &here)?,
                None => {
                    if let Some(extra) = schema.get("additionalProperties") {
                        self.against(extra, item, &here)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn array(&self, schema: &Map<String, Value>, items: &[Value], at: &str) -> Result<(), String> {
        let count = items.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && count < min
        {
            return Err(format!("{at}: {count} items, fewer than {min}"));
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && count > max
        {
            return Err(format!("{at}: {count} items, more than {max}"));
        }
        if let Some(each) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                self.against(each, item, &format!("{at}[{i}]"))?;
            }
        }
        Ok(())
    }
}

/// Is `value` of the JSON Schema type `kind`?
fn is_kind(value: &Value, kind: &str) -> bool {
    match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => panic!("no JSON Schema type `{kind}`"),
    }
}

/// Why none of the choices fit: the reason that got furthest into the
/// value (the deepest path), which is most often the one meant; a key
/// another choice does not have is the least telling.
fn closest(fits: Vec<Result<(), String>>, at: &str) -> String {
    fits.into_iter()
        .filter_map(Result::err)
        .max_by_key(|why| {
            let path = why.split(": ").next().unwrap_or("");
            let depth = path.matches(['.', '[']).count();
            (!why.ends_with(NOTHING_ALLOWED), depth)
        })
        .unwrap_or_else(|| format!("{at}: no choice to fit"))
}
