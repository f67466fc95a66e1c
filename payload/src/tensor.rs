//! Host tensors for JIT calls: an element type, a static shape and a
//! 64-byte-aligned buffer, with conversions used to compare and fill them.

use crate::ffi::HostBuffer;

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
}

impl ElementType {
    /// Parses an MLIR element type (`f32`, `i64`, …).
    pub fn from_mlir(text: &str) -> Option<Self> {
        match text {
            "f32" => Some(Self::F32),
            "f64" => Some(Self::F64),
            "i32" => Some(Self::I32),
            "i64" => Some(Self::I64),
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
        }
    }

    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Self::F32 | Self::I32 => 4,
            Self::F64 | Self::I64 => 8,
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

/// A tensor in host memory.
#[derive(Clone)]
pub struct Tensor {
    /// Its type.
    pub ty: TensorType,
    /// Its elements, row-major, little-endian.
    pub buffer: HostBuffer,
}

impl std::fmt::Debug for Tensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tensor({})", self.ty)
    }
}

impl Tensor {
    /// A tensor of zeros.
    pub fn zeros(ty: TensorType) -> Self {
        let buffer = HostBuffer::zeroed(ty.elements() * ty.element.bytes());
        Self { ty, buffer }
    }

    /// A tensor from little-endian element bytes; `None` if the length is wrong.
    pub fn from_bytes(ty: TensorType, bytes: &[u8]) -> Option<Self> {
        let mut tensor = Self::zeros(ty);
        if bytes.len() != tensor.buffer.len() {
            return None;
        }
        tensor.buffer.bytes_mut().copy_from_slice(bytes);
        Some(tensor)
    }

    /// Deterministic pseudo-random values from `seed`: floats uniform in
    /// [-1, 1), integers in [-8, 8).
    pub fn random(ty: TensorType, seed: u64) -> Self {
        let mut tensor = Self::zeros(ty);
        let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
        let element = tensor.ty.element;
        for chunk in tensor.buffer.bytes_mut().chunks_exact_mut(element.bytes()) {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            let unit = (z >> 11) as f64 / (1u64 << 53) as f64;
            match element {
                ElementType::F32 => {
                    chunk.copy_from_slice(&((unit * 2.0 - 1.0) as f32).to_le_bytes())
                }
                ElementType::F64 => chunk.copy_from_slice(&(unit * 2.0 - 1.0).to_le_bytes()),
                ElementType::I32 => {
                    chunk.copy_from_slice(&((unit * 16.0) as i32 - 8).to_le_bytes())
                }
                ElementType::I64 => {
                    chunk.copy_from_slice(&((unit * 16.0) as i64 - 8).to_le_bytes())
                }
            }
        }
        tensor
    }

    /// Every element as `f64`, for comparisons.
    pub fn to_f64(&self) -> Vec<f64> {
        let element = self.ty.element;
        self.buffer
            .bytes()
            .chunks_exact(element.bytes())
            .map(|b| match element {
                ElementType::F32 => f32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
                ElementType::F64 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
                ElementType::I32 => i32::from_le_bytes(b.try_into().expect("4 bytes")) as f64,
                ElementType::I64 => i64::from_le_bytes(b.try_into().expect("8 bytes")) as f64,
            })
            .collect()
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
            "`{text}`: element type `{element_text}` is not supported (use f32, f64, i32 or i64)"
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

    #[test]
    fn random_is_deterministic_and_in_range() {
        let ty = TensorType {
            element: ElementType::F32,
            shape: vec![3, 5],
        };
        let a = Tensor::random(ty.clone(), 7).to_f64();
        assert_eq!(a, Tensor::random(ty.clone(), 7).to_f64());
        assert_ne!(a, Tensor::random(ty, 8).to_f64());
        assert!(a.iter().all(|v| (-1.0..1.0).contains(v)));
    }
}
