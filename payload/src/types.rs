//! The tensor types a payload's entry function passes: an element type and a
//! static shape, as MLIR prints them (`tensor<4x8xf32>`).

/// Element types `run` can pass to and from compiled code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementType {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `i8`.
    I8,
    /// `i1`, one byte per element holding 0 or 1 (as LLVM stores it, and
    /// as numpy's `bool`).
    I1,
}

impl ElementType {
    /// Parses an MLIR element type (`f32`, `i64`, …).
    pub fn from_mlir(text: &str) -> Option<Self> {
        match text {
            "f32" => Some(Self::F32),
            "f64" => Some(Self::F64),
            "i32" => Some(Self::I32),
            "i64" => Some(Self::I64),
            "i8" => Some(Self::I8),
            "i1" => Some(Self::I1),
            _ => None,
        }
    }

    /// The MLIR spelling.
    pub fn mlir_name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F64 => "f64",
            Self::I32 => "i32",
            Self::I64 => "i64",
            Self::I8 => "i8",
            Self::I1 => "i1",
        }
    }

    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Self::F32 | Self::I32 => 4,
            Self::F64 | Self::I64 => 8,
            Self::I8 | Self::I1 => 1,
        }
    }

    /// True for floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, Self::F32 | Self::F64)
    }
}

/// The static type of one tensor argument or result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorType {
    /// Element type.
    pub element: ElementType,
    /// Static shape (row-major).
    pub shape: Vec<i64>,
}

impl TensorType {
    /// Number of elements.
    pub fn elements(&self) -> usize {
        let dims = self.shape.iter().map(|&d| usize::try_from(d).unwrap_or(0));
        dims.fold(1, usize::saturating_mul)
    }

    /// Size in bytes (saturating: shapes come from user payloads).
    pub fn size_in_bytes(&self) -> usize {
        self.elements().saturating_mul(self.element.bytes())
    }
}

impl std::fmt::Display for TensorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.element.mlir_name())
    }
}

/// Parses a ranked tensor type as MLIR prints it (`tensor<4x8xf32>`).
/// `Err` says why it cannot be passed (dynamic size, element type, encoding).
pub fn parse_tensor_type(text: &str) -> Result<TensorType, String> {
    let Some(inner) = text
        .strip_prefix("tensor<")
        .and_then(|t| t.strip_suffix('>'))
    else {
        return Err(format!("`{text}` is not a ranked tensor type"));
    };
    if inner.contains(',') {
        return Err(format!(
            "`{text}` has an encoding; only plain dense tensors can be passed"
        ));
    }
    // The dimensions, each followed by `x`, then the element type (which
    // may hold an `x` of its own: `complex<f32>`).
    let mut parts: Vec<&str> = Vec::new();
    let mut element_text = inner;
    while let Some((dimension, rest)) = element_text.split_once('x') {
        if dimension != "?" && dimension.parse::<i64>().is_err() {
            break;
        }
        parts.push(dimension);
        element_text = rest;
    }
    let element = ElementType::from_mlir(element_text).ok_or_else(|| {
        format!(
            "`{text}`: element type `{element_text}` is not supported (use f32, f64, i32, i64, i8 or i1)"
        )
    })?;
    let mut shape = Vec::new();
    for part in parts {
        match part.parse::<i64>() {
            Ok(size) => shape.push(size),
            Err(_) if part == "?" => {
                return Err(format!(
                    "`{text}` has a dynamic size; `run` needs static shapes"
                ))
            }
            Err(_) => return Err(format!("`{text}`: cannot read dimension `{part}`")),
        }
    }
    Ok(TensorType { element, shape })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_types_parse() {
        assert_eq!(
            parse_tensor_type("tensor<4x8xf32>").unwrap(),
            TensorType {
                element: ElementType::F32,
                shape: vec![4, 8]
            }
        );
        assert_eq!(
            parse_tensor_type("tensor<i64>").unwrap(),
            TensorType {
                element: ElementType::I64,
                shape: vec![]
            }
        );
        assert_eq!(
            parse_tensor_type("tensor<1x4x128x1xi1>").unwrap(),
            TensorType {
                element: ElementType::I1,
                shape: vec![1, 4, 128, 1]
            }
        );
        assert_eq!(
            parse_tensor_type("tensor<3xi8>").unwrap().size_in_bytes(),
            3
        );
        assert!(parse_tensor_type("tensor<?x8xf32>")
            .unwrap_err()
            .contains("dynamic"));
        assert!(parse_tensor_type("tensor<4xbf16>")
            .unwrap_err()
            .contains("bf16"));
        let complex = parse_tensor_type("tensor<4x8xcomplex<f32>>").unwrap_err();
        assert!(complex.contains("element type `complex<f32>`"), "{complex}");
        assert!(parse_tensor_type("memref<4xf32>")
            .unwrap_err()
            .contains("not a ranked tensor"));
    }
}
