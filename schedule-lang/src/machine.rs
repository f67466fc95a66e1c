//! The vector unit a schedule is checked for: how wide its registers are and
//! how many there are. A register tile that fits AVX-512's 32 registers of 64
//! bytes spills on AVX2's 16 of 32 bytes (`examples/halide_conv/conv.sched`,
//! 20 AVX-512 accumulators: 40 of AVX2's, on a core that has 16), so the
//! warnings that count registers, and the tuner's cost model, ask this.

/// A CPU's vector registers, as schedules use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VectorUnit {
    /// Its name in messages (`AVX-512`).
    pub name: &'static str,
    /// Bytes per vector register.
    pub bytes: i64,
    /// Vector registers the code can use.
    pub registers: i64,
}

impl VectorUnit {
    /// x86's AVX-512: 32 registers of 64 bytes (16 f32 lanes).
    pub const AVX512: VectorUnit = VectorUnit {
        name: "AVX-512",
        bytes: 64,
        registers: 32,
    };
    /// x86's AVX and AVX2: 16 registers of 32 bytes (8 f32 lanes).
    pub const AVX2: VectorUnit = VectorUnit {
        name: "AVX2",
        bytes: 32,
        registers: 16,
    };
    /// x86-64's SSE: 16 registers of 16 bytes (4 f32 lanes).
    pub const SSE: VectorUnit = VectorUnit {
        name: "SSE",
        bytes: 16,
        registers: 16,
    };

    /// The names [`VectorUnit::named`] takes, for help and errors.
    pub const NAMES: &'static [&'static str] = &["host", "avx512", "avx2", "sse"];

    /// This machine's unit, as LLVM compiles for it: AVX-512 when the CPU
    /// has AVX-512F, AVX2 when it has AVX, else SSE.
    pub fn host() -> VectorUnit {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return VectorUnit::AVX512;
            }
            if std::arch::is_x86_feature_detected!("avx") {
                return VectorUnit::AVX2;
            }
        }
        VectorUnit::SSE
    }

    /// The unit `name` stands for (one of [`VectorUnit::NAMES`], any case).
    pub fn named(name: &str) -> Option<VectorUnit> {
        match name.to_ascii_lowercase().as_str() {
            "host" => Some(VectorUnit::host()),
            "avx512" | "avx-512" => Some(VectorUnit::AVX512),
            "avx2" | "avx" => Some(VectorUnit::AVX2),
            "sse" => Some(VectorUnit::SSE),
            _ => None,
        }
    }

    /// Elements of `element_bytes` bytes in one register (at least one).
    pub fn lanes(&self, element_bytes: i64) -> i64 {
        (self.bytes / element_bytes.max(1)).max(1)
    }

    /// Accumulator registers a register tile may hold: the registers less
    /// four for what each step reads (a row of the other operand, a
    /// broadcast): 28 of AVX-512's, 12 of AVX2's.
    pub fn accumulators(&self) -> i64 {
        self.registers - 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_named_as_users_write_them() {
        assert_eq!(VectorUnit::named("AVX512"), Some(VectorUnit::AVX512));
        assert_eq!(VectorUnit::named("avx-512"), Some(VectorUnit::AVX512));
        assert_eq!(VectorUnit::named("avx2"), Some(VectorUnit::AVX2));
        assert_eq!(VectorUnit::named("host"), Some(VectorUnit::host()));
        assert_eq!(VectorUnit::named("neon"), None);
    }

    #[test]
    fn lanes_and_accumulators_follow_the_registers() {
        assert_eq!(VectorUnit::AVX512.lanes(4), 16);
        assert_eq!(VectorUnit::AVX2.lanes(4), 8);
        assert_eq!(VectorUnit::AVX2.lanes(8), 4);
        assert_eq!(VectorUnit::SSE.lanes(1), 16);
        assert_eq!(VectorUnit::AVX512.accumulators(), 28);
        assert_eq!(VectorUnit::AVX2.accumulators(), 12);
    }
}
