//! Host tensors for JIT calls: a [`TensorType`] and a 64-byte-aligned
//! buffer, with conversions used to compare and fill them.

use crate::ffi::HostBuffer;
use payload::types::{ElementType, TensorType};

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
    /// [-1, 1), integers in [-8, 8), `i1` 0 or 1.
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
                ElementType::I8 => chunk.copy_from_slice(&((unit * 16.0) as i8 - 8).to_le_bytes()),
                ElementType::I1 => chunk[0] = u8::from(unit >= 0.5),
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
                ElementType::I8 => f64::from(b[0] as i8),
                // Code loading an `i1` reads the byte's low bit.
                ElementType::I1 => f64::from(b[0] & 1),
            })
            .collect()
    }
}

/// Gives each tensor of `fresh` the value of the input beside it again (a
/// call may change its inputs, or move a result's buffer into one), copied
/// into the buffer it already has where the sizes agree: a timing loop then
/// allocates nothing between calls, and a model's weights are not faulted
/// into new pages before every call (mobilenet_v2: 1 950 page faults a call).
pub fn restore(fresh: &mut [Tensor], inputs: &[Tensor]) {
    for (to, from) in fresh.iter_mut().zip(inputs) {
        match to.buffer.len() == from.buffer.len() {
            true => {
                to.buffer.bytes_mut().copy_from_slice(from.buffer.bytes());
                to.ty = from.ty.clone();
            }
            false => *to = from.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn restore_copies_into_the_buffers_it_has_and_replaces_one_of_another_size() {
        let ty = |n| TensorType {
            element: ElementType::F32,
            shape: vec![n],
        };
        let inputs = vec![Tensor::random(ty(8), 1), Tensor::random(ty(4), 2)];
        let mut fresh = vec![Tensor::random(ty(8), 3), Tensor::random(ty(2), 4)];
        let kept = fresh[0].buffer.bytes().as_ptr();
        restore(&mut fresh, &inputs);
        assert_eq!(fresh[0].buffer.bytes().as_ptr(), kept);
        for (f, i) in fresh.iter().zip(&inputs) {
            assert_eq!(f.to_f64(), i.to_f64());
            assert_eq!(f.ty, i.ty);
        }
    }

    #[test]
    fn random_narrow_integers_cover_their_range() {
        let ty = |element| TensorType {
            element,
            shape: vec![64],
        };
        let bits = Tensor::random(ty(ElementType::I1), 3).to_f64();
        assert!(bits.iter().all(|v| *v == 0.0 || *v == 1.0));
        assert!(bits.contains(&0.0) && bits.contains(&1.0), "{bits:?}");
        let bytes = Tensor::random(ty(ElementType::I8), 3).to_f64();
        assert!(bytes.iter().all(|v| (-8.0..8.0).contains(v)));
        assert!(bytes.iter().any(|v| *v < 0.0), "{bytes:?}");
    }
}
