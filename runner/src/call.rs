//! Calling a compiled [`Program`]: with tensors it owns ([`Program::call`]),
//! or with memory the caller lends ([`Program::call_lent`]: a read-only
//! argument's bytes and the results' bytes, so a binding passes its arrays
//! without copies).

use crate::ffi::MemrefArg;
use crate::jit::Program;
use crate::tensor::Tensor;
use microkernels::abi::status;

/// Why a call of a compiled payload failed.
#[derive(Debug)]
pub enum CallError {
    /// The tensors do not match the signature, or the engine failed.
    Call(String),
    /// An accelerator's kernel failed a tile call, so the results are wrong.
    Accelerator(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Call(message) | CallError::Accelerator(message) => f.write_str(message),
        }
    }
}

/// An argument of [`Program::call_lent`].
pub enum Argument<'a> {
    /// A tensor of the caller's, which the call may write.
    Tensor(&'a mut Tensor),
    /// The row-major elements of an argument the program only reads
    /// ([`Program::reads_only`]), lent for the call.
    Lent(&'a [u8]),
}

impl Program {
    /// For each result, the argument it is computed in (then [`Program::call`]
    /// moves that input's buffer to the result), or `None` for an out-parameter.
    pub fn results_in_arguments(&self) -> &[Option<usize>] {
        &self.boundary.in_arguments
    }

    /// Whether the compiled code only reads argument `index` (no op writes
    /// into it, no result is computed in it): its bytes may be lent
    /// ([`Argument::Lent`]) and come back unchanged.
    pub fn reads_only(&self, index: usize) -> bool {
        self.boundary.read_only.get(index) == Some(&true)
    }

    /// Seeded random arguments of the right types: argument `i` is filled
    /// from seed `first_seed + i` ([`Tensor::random`]).
    pub fn random_inputs(&self, first_seed: u64) -> Vec<Tensor> {
        let types = self.signature.inputs.iter().enumerate();
        types
            .map(|(i, ty)| Tensor::random(ty.clone(), first_seed.wrapping_add(i as u64)))
            .collect()
    }

    /// Zeroed result tensors of the right types, to pass to [`Program::call`].
    pub fn new_results(&self) -> Vec<Tensor> {
        self.signature
            .results
            .iter()
            .cloned()
            .map(Tensor::zeros)
            .collect()
    }

    /// Calls the entry function: `results` receive the results. `inputs` may
    /// change: a result the payload computes in place in an argument's buffer
    /// is moved out of that input (which gets the result's old buffer).
    pub fn call(&self, inputs: &mut [Tensor], results: &mut [Tensor]) -> Result<(), CallError> {
        let types = self.signature.inputs.iter().chain(&self.signature.results);
        let tensors = inputs.iter().chain(results.iter());
        if inputs.len() != self.signature.inputs.len()
            || results.len() != self.signature.results.len()
            || types.zip(tensors).any(|(t, x)| *t != x.ty)
        {
            return Err(self.mismatch());
        }
        let out_params = results
            .iter_mut()
            .zip(&self.boundary.in_arguments)
            .filter(|(_, argument)| argument.is_none())
            .map(|(t, _)| t);
        let mut args: Vec<MemrefArg<'_>> = inputs
            .iter_mut()
            .chain(out_params)
            .map(|t| MemrefArg::writable(t.buffer.bytes_mut(), &t.ty.shape, t.ty.element.bytes()))
            .collect();
        self.invoke(&mut args)?;
        // Each argument's buffer moves to the first result computed in it; a
        // later result computed in the same argument gets a copy.
        let mut moved: Vec<(usize, usize)> = Vec::new();
        for (result, argument) in self.boundary.in_arguments.iter().enumerate() {
            let Some(argument) = *argument else { continue };
            match moved.iter().find(|(a, _)| *a == argument) {
                Some(&(_, first)) => results[result].buffer = results[first].buffer.clone(),
                None => {
                    std::mem::swap(&mut results[result].buffer, &mut inputs[argument].buffer);
                    moved.push((argument, result));
                }
            }
        }
        Ok(())
    }

    /// Calls the entry function on `inputs`, writing each result's row-major
    /// bytes into `results` (of the signature's sizes). An argument may be
    /// lent only where [`Program::reads_only`] says so; a result computed in
    /// an argument (which must then be a [`Argument::Tensor`]) is copied
    /// from it.
    pub fn call_lent(
        &self,
        inputs: &mut [Argument<'_>],
        results: &mut [&mut [u8]],
    ) -> Result<(), CallError> {
        let signature = &self.signature;
        let lent = |i: usize| matches!(inputs[i], Argument::Lent(_));
        if inputs.len() != signature.inputs.len()
            || results.len() != signature.results.len()
            || inputs
                .iter()
                .zip(&signature.inputs)
                .any(|(input, ty)| match input {
                    Argument::Tensor(t) => t.ty != *ty,
                    Argument::Lent(bytes) => bytes.len() != ty.size_in_bytes(),
                })
            || results
                .iter()
                .map(|r| r.len())
                .ne(signature.results.iter().map(|t| t.size_in_bytes()))
        {
            return Err(self.mismatch());
        }
        if let Some(index) = (0..inputs.len()).find(|&i| lent(i) && !self.reads_only(i)) {
            return Err(CallError::Call(format!(
                "argument {index} of @{} is written by the call, so it cannot be lent: pass a tensor",
                signature.name
            )));
        }
        let in_arguments = &self.boundary.in_arguments;
        let out_params = results
            .iter_mut()
            .zip(in_arguments)
            .zip(&signature.results)
            .filter(|((_, argument), _)| argument.is_none())
            .map(|((bytes, _), ty)| MemrefArg::writable(bytes, &ty.shape, ty.element.bytes()));
        let mut args: Vec<MemrefArg<'_>> = inputs
            .iter_mut()
            .zip(&signature.inputs)
            .map(|(input, ty)| match input {
                Argument::Tensor(t) => {
                    MemrefArg::writable(t.buffer.bytes_mut(), &ty.shape, ty.element.bytes())
                }
                Argument::Lent(bytes) => MemrefArg::read_only(bytes, &ty.shape, ty.element.bytes()),
            })
            .chain(out_params)
            .collect();
        self.invoke(&mut args)?;
        for (result, argument) in in_arguments.iter().enumerate() {
            if let Some(Argument::Tensor(t)) = argument.map(|a| &inputs[a]) {
                results[result].copy_from_slice(t.buffer.bytes());
            }
        }
        Ok(())
    }

    /// The error of tensors that do not match the signature.
    fn mismatch(&self) -> CallError {
        CallError::Call(format!(
            "the tensors passed do not match the signature of @{}",
            self.signature.name
        ))
    }

    /// Runs the entry on `args` (its arguments, then its out-parameters),
    /// with the accelerators' status reset before and checked after.
    fn invoke(&self, args: &mut [MemrefArg<'_>]) -> Result<(), CallError> {
        for slot in &self.kernels {
            slot.reset();
        }
        let _named = self
            .hal_crash_message
            .as_deref()
            .map(crate::ffi::HalCrashGuard::arm);
        self.engine
            .call(&self.signature.name, args)
            .map_err(CallError::Call)?;
        for slot in &self.kernels {
            match slot.status() {
                status::OK => {}
                code => return Err(CallError::Accelerator(format!(
                    "accelerator `{}` failed a tile call with status {code} ({}): the results are wrong",
                    slot.target,
                    match code {
                        status::REFUSED => "it refused the tile: beyond its native tile or its local memory",
                        status::BAD_ARGUMENTS => "bad arguments: a tile whose rows are not contiguous, or a batch dimension over 1",
                        _ => "a code of its own",
                    }
                ))),
            }
        }
        Ok(())
    }
}
