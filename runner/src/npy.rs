//! NumPy `.npy` files (format versions 1–3, little-endian, C order) for
//! `run --inputs` and `--save-outputs`.

use crate::tensor::Tensor;
use payload::types::{ElementType, TensorType};

const MAGIC: &[u8] = b"\x93NUMPY";

/// Reads a `.npy` file's bytes. `Err` says what is wrong with them.
pub fn read(bytes: &[u8]) -> Result<Tensor, String> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a .npy file (the magic string `\\x93NUMPY` is missing)".into());
    }
    let major = bytes[6];
    let (header_len, header_start) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(format!("unsupported .npy format version {major}")),
    };
    let header_end = header_start + header_len;
    let header = bytes
        .get(header_start..header_end)
        .ok_or_else(|| {
            format!(
                "the header is cut short: version {major}'s prefix says {header_len} bytes of header, but the file holds {} after it",
                bytes.len().saturating_sub(header_start)
            )
        })?;
    let header = std::str::from_utf8(header).map_err(|_| "the header is not text")?;
    let descr = dict_value(header, "descr").ok_or("the header has no `descr`")?;
    let quote = descr
        .chars()
        .next()
        .filter(|c| *c == '\'' || *c == '"')
        .ok_or("`descr` is not a string")?;
    let descr = &descr[1..];
    let descr = &descr[..descr.find(quote).ok_or("`descr` is not a closed string")?];
    let element = match descr {
        "<f4" => ElementType::F32,
        "<f8" => ElementType::F64,
        "<i4" => ElementType::I32,
        "<i8" => ElementType::I64,
        "|i1" => ElementType::I8,
        "|b1" => ElementType::I1,
        other => return Err(format!("dtype `{other}` is not supported (use float32, float64, int32 or int64, little-endian, int8 or bool)")),
    };
    if dict_value(header, "fortran_order").is_some_and(|v| v.starts_with("True")) {
        return Err(
            "Fortran-order arrays are not supported; save with np.ascontiguousarray".into(),
        );
    }
    let shape_text = dict_value(header, "shape").ok_or("the header has no `shape`")?;
    let shape_text = shape_text.trim().trim_start_matches('(');
    let shape_text = &shape_text[..shape_text.find(')').ok_or("the shape is not a tuple")?];
    let shape = shape_text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>()
                .map_err(|_| format!("cannot read shape entry `{s}`"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let ty = TensorType { element, shape };
    let data = &bytes[header_end..];
    let expected = ty.elements() * element.bytes();
    if data.len() != expected {
        return Err(format!(
            "the header says {ty} ({expected} bytes of data) but the file holds {} bytes",
            data.len()
        ));
    }
    // Compiled code loads an `i1` as a byte it assumes is 0 or 1.
    if element == ElementType::I1 {
        if let Some(at) = data.iter().position(|&b| b > 1) {
            return Err(format!(
                "a bool array holds byte {} at element {at}; bool elements must be 0 or 1",
                data[at]
            ));
        }
    }
    Ok(Tensor::from_bytes(ty, data).expect("the length was checked"))
}

/// The text after `'key':` in a header dict, up to the end of the header.
fn dict_value<'h>(header: &'h str, key: &str) -> Option<&'h str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))?;
    let rest = &header[at + key.len() + 2..];
    Some(rest.trim_start().strip_prefix(':')?.trim_start())
}

/// Serializes a tensor as a version 1.0 `.npy` file.
pub fn write(tensor: &Tensor) -> Vec<u8> {
    let descr = match tensor.ty.element {
        ElementType::F32 => "<f4",
        ElementType::F64 => "<f8",
        ElementType::I32 => "<i4",
        ElementType::I64 => "<i8",
        ElementType::I8 => "|i1",
        ElementType::I1 => "|b1",
    };
    let shape = match tensor.ty.shape.as_slice() {
        [one] => format!("({one},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad so the data starts on a 64-byte boundary; the header ends in a newline.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + tensor.buffer.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(tensor.buffer.bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_type_and_rank() {
        for element in [
            ElementType::F32,
            ElementType::F64,
            ElementType::I32,
            ElementType::I64,
            ElementType::I8,
            ElementType::I1,
        ] {
            for shape in [vec![], vec![5], vec![2, 3], vec![2, 1, 4]] {
                let tensor = Tensor::random(
                    TensorType {
                        element,
                        shape: shape.clone(),
                    },
                    3,
                );
                let bytes = write(&tensor);
                assert_eq!(bytes[..6], *MAGIC);
                let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
                assert_eq!((10 + header_len) % 64, 0, "data is 64-byte aligned");
                let back = read(&bytes).unwrap();
                assert_eq!(back.ty, tensor.ty);
                assert_eq!(back.buffer.bytes(), tensor.buffer.bytes());
            }
        }
    }

    #[test]
    fn reads_what_numpy_writes() {
        // np.save of np.arange(6, dtype=np.float32).reshape(2, 3), header as numpy 1.x writes it.
        let mut bytes =
            b"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
                .to_vec();
        bytes.resize(10 + 118 - 1, b' ');
        bytes.push(b'\n');
        for i in 0..6 {
            bytes.extend_from_slice(&(i as f32).to_le_bytes());
        }
        let tensor = read(&bytes).unwrap();
        assert_eq!(tensor.ty.shape, vec![2, 3]);
        assert_eq!(tensor.to_f64(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn reads_format_version_3() {
        // np.lib.format.write_array(f, np.zeros((2, 3), np.float32), version=(3, 0)):
        // a 4-byte header length, then a UTF-8 header.
        let mut bytes =
            b"\x93NUMPY\x03\x00t\x00\x00\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
                .to_vec();
        bytes.resize(12 + 116 - 1, b' ');
        bytes.push(b'\n');
        bytes.extend_from_slice(&[0; 24]);
        let tensor = read(&bytes).unwrap();
        assert_eq!(tensor.ty.shape, vec![2, 3]);
        // A version 1 file relabelled 3 keeps a 2-byte length: numpy refuses it too.
        let mut relabelled = write(&tensor);
        relabelled[6] = 3;
        let why = read(&relabelled).unwrap_err();
        assert!(why.contains("version 3's prefix says"), "{why}");
    }

    #[test]
    fn rejects_bad_files_with_a_reason() {
        assert!(read(b"hello").unwrap_err().contains("not a .npy"));
        let tensor = Tensor::random(
            TensorType {
                element: ElementType::F32,
                shape: vec![4],
            },
            1,
        );
        let mut bytes = write(&tensor);
        bytes.pop();
        assert!(read(&bytes).unwrap_err().contains("holds 15 bytes"));
        let edit = |from: &str, to: &str| {
            let mut bytes = write(&tensor);
            let at = bytes
                .windows(from.len())
                .position(|w| w == from.as_bytes())
                .unwrap();
            bytes[at..at + to.len()].copy_from_slice(to.as_bytes());
            bytes
        };
        assert!(read(&edit("<f4", "<f2"))
            .unwrap_err()
            .contains("`<f2` is not supported"));
        assert!(read(&edit("False", "True "))
            .unwrap_err()
            .contains("Fortran"));
        let mask = Tensor::from_bytes(
            TensorType {
                element: ElementType::I1,
                shape: vec![3],
            },
            &[1, 0, 2],
        )
        .unwrap();
        let why = read(&write(&mask)).unwrap_err();
        assert!(why.contains("byte 2 at element 2"), "{why}");
    }
}
