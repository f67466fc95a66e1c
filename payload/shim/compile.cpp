// Machine code for a lowered payload, generated on several threads. MLIR's
// ExecutionEngine optimizes and compiles the module as one unit, on one
// thread, where a model of hundreds of ops spends seconds. Here the constants each function is
// called with are propagated into it across the whole module (an outlined
// nest gets its loop bounds from its one caller), then the module is split
// into parts, each optimized and compiled to an object file on a thread of
// its own (in an LLVM context of its own: one context is not safe to use
// from two threads). The objects are linked by ORC (`ffi/orc.rs`), as
// cached ones are.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/SCCP.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/SplitModule.h"
#include <algorithm>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

// The C interface functions (`_mlir_ciface_<f>`) sched-apply calls.
constexpr llvm::StringLiteral cInterfacePrefix = "_mlir_ciface_";

// Gives each C interface function `f` a packed wrapper `_mlir_f(ptr args)`:
// `args[i]` points at argument i, and, for a function with a result, at the
// result's slot after them. sched-apply calls every compiled function this
// way, whatever its arity (the name and convention MLIR's ExecutionEngine
// uses, so objects it wrote load the same way).
void addPackedWrappers(llvm::Module &module) {
  std::vector<llvm::Function *> interfaces;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() &&
        function.getName().starts_with(cInterfacePrefix))
      interfaces.push_back(&function);
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  for (llvm::Function *function : interfaces) {
    auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                         {pointer}, /*isVarArg=*/false);
    auto *wrapper = llvm::Function::Create(
        type, llvm::GlobalValue::ExternalLinkage,
        "_mlir_" + function->getName(), module);
    llvm::IRBuilder<> builder(
        llvm::BasicBlock::Create(context, "entry", wrapper));
    llvm::Value *args = wrapper->getArg(0);
    auto slot = [&](unsigned index) {
      llvm::Value *address = builder.CreateConstGEP1_64(pointer, args, index);
      return builder.CreateLoad(pointer, address);
    };
    std::vector<llvm::Value *> values;
    for (llvm::Argument &argument : function->args())
      values.push_back(
          builder.CreateLoad(argument.getType(), slot(argument.getArgNo())));
    llvm::Value *result = builder.CreateCall(function, values);
    if (!function->getReturnType()->isVoidTy())
      builder.CreateStore(result, slot(function->arg_size()));
    builder.CreateRetVoid();
  }
}

// Inlines into each C interface function `_mlir_ciface_f` the function `f`
// it calls, when nothing else calls `f`. The interface receives each
// buffer as a pointer to its descriptor and calls `f` with every field as an
// argument of its own: MobileNet-v2's 263 arguments made a call of 1 642,
// whose instruction selection took 1.4 s, and `f` a function receiving
// them, 0.3 s more. Inlined, the fields are loaded
// where they are used. Returns how many were inlined.
int inlineEntriesIntoInterfaces(llvm::Module &module) {
  std::vector<llvm::CallBase *> calls;
  for (llvm::Function &function : module) {
    if (function.isDeclaration() ||
        !function.getName().starts_with(cInterfacePrefix))
      continue;
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (callee && !callee->isDeclaration() && callee->hasOneUse() &&
          callee->getName() ==
              function.getName().drop_front(cInterfacePrefix.size()))
        calls.push_back(call);
    }
  }
  int inlined = 0;
  for (llvm::CallBase *call : calls) {
    llvm::Function *callee = call->getCalledFunction();
    llvm::InlineFunctionInfo info;
    if (!llvm::InlineFunction(*call, info).isSuccess())
      continue;
    ++inlined;
    if (callee->use_empty())
      callee->eraseFromParent();
  }
  return inlined;
}

// Three of LLVM's code generation settings, changed once for every compile
// of the process as their command-line flags would change them. All are
// about blocks with hundreds of memory operations, which unrolled tiles and
// vectors wider than the registers (a 32 x 8 tile of floats is 32 AVX2
// loads) make; each costs time that grows as the square of that count. The
// first two were 90% of resnet18 at batch 8's 59 s of code generation on an
// AMD Zen 1 (`perf`: `SUnit::addPred`).
// - `-post-RA-scheduler=false`: the list scheduler after register
//   allocation, which X86 runs only for the CPUs whose scheduling model asks
//   for it (Zen 1 and 2 among them, no Intel core): half of that time.
// - `-dag-maps-huge-region=400` (LLVM's default 1000): how many memory
//   operations the scheduler before register allocation orders one against
//   another before it merges them under one barrier. `llc` of the larger of
//   that model's two parts: 22.6 s at 1000, 6.1 s at 400, 4.3 s at 100.
// - `-combiner-store-merging=false`: the selection DAG's search for
//   adjacent narrow stores to merge into wide ones (`getStoreMergeCandidates`).
//   Vector code stores whole vectors already. It showed on the split path
//   below (constants propagated: short loops probably unroll whole): resnet18 under its
//   AVX2-tuned schedule, on two cores, did not compile in 120 s with it and
//   in 9.0 s without.
void setCodeGenerationFlags() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    for (auto [name, value] : {std::pair{"post-RA-scheduler", "false"},
                               std::pair{"dag-maps-huge-region", "400"},
                               std::pair{"combiner-store-merging", "false"}}) {
      auto found = options.find(name);
      if (found != options.end())
        found->second->addOccurrence(/*pos=*/1, name, value);
    }
  });
}

// A target machine for this host, position-independent code (objects may
// be cached and loaded at any address).
std::unique_ptr<llvm::TargetMachine> hostMachine(int optLevel,
                                                 std::string &error) {
  setCodeGenerationFlags();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = llvm::toString(builder.takeError());
    return nullptr;
  }
  builder->setCodeGenOptLevel(optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
                              : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                              : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                              : llvm::CodeGenOptLevel::None);
  builder->setRelocationModel(llvm::Reloc::PIC_);
  auto machine = builder->createTargetMachine();
  if (!machine) {
    error = llvm::toString(machine.takeError());
    return nullptr;
  }
  return std::move(*machine);
}

// Propagates the constants each function is called with into it, across
// the whole module (after the clean-up that exposes them, as LLVM's -O3
// pipeline does first): an outlined nest, called once, gets its loop
// bounds back before the module is split into parts that no longer see
// the call.
void propagateConstants(llvm::Module &module, llvm::TargetMachine *machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  llvm::PassBuilder builder(machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::FunctionPassManager cleanup;
  cleanup.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  cleanup.addPass(llvm::EarlyCSEPass());
  llvm::ModulePassManager passes;
  passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(cleanup)));
  passes.addPass(llvm::IPSCCPPass());
  passes.run(module, modules);
}

// Optimizes `module` at `optLevel` for `machine` and generates its object
// file. Returns false (and says why) on failure.
bool optimizeAndEmit(llvm::Module &module, llvm::TargetMachine &machine,
                     int optLevel, std::string &object, std::string &error) {
  if (llvm::Error failure = mlir::makeOptimizingTransformer(
          optLevel, /*sizeLevel=*/0, &machine)(&module)) {
    error = llvm::toString(std::move(failure));
    return false;
  }
  llvm::raw_string_ostream stream(object);
  llvm::buffer_ostream buffered(stream);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, buffered, nullptr,
                                  llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit object files";
    return false;
  }
  passes.run(module);
  return true;
}

// `optimizeAndEmit` of the module in `bitcode`, read into a context and
// for a target machine of its own (so that threads share neither).
bool emitPart(const llvm::SmallString<0> &bitcode, int optLevel,
              std::string &object, std::string &error) {
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                            "part"),
      context);
  if (!module) {
    error = llvm::toString(module.takeError());
    return false;
  }
  std::unique_ptr<llvm::TargetMachine> machine = hostMachine(optLevel, error);
  return machine && optimizeAndEmit(**module, *machine, optLevel, object, error);
}

// Moves every constant global of at least `minBytes` (a frozen model's
// weights) out of `module` into a module of its own, which is emitted
// without optimizing; `module` keeps external declarations of them, under
// names of their own. Split with the code, they were copied into the parts
// and written and read back as bitcode (resnet18's 46 MB of weights: 4.6 s
// of a 15 s compile on two threads, against 6.9 s on one).
std::unique_ptr<llvm::Module> takeLargeConstants(llvm::Module &module,
                                                 uint64_t minBytes) {
  auto data = std::make_unique<llvm::Module>("data", module.getContext());
  data->setDataLayout(module.getDataLayout());
  data->setTargetTriple(module.getTargetTriple());
  const llvm::DataLayout &layout = module.getDataLayout();
  int moved = 0;
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.hasInitializer() || !global.isConstant() ||
        layout.getTypeAllocSize(global.getValueType()) < minBytes)
      continue;
    global.setName("__sched_data_" + std::to_string(moved++));
    auto *copy = new llvm::GlobalVariable(
        *data, global.getValueType(), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage, global.getInitializer(),
        global.getName());
    copy->setAlignment(global.getAlign());
    global.setInitializer(nullptr);
    global.setLinkage(llvm::GlobalValue::ExternalLinkage);
    global.setVisibility(llvm::GlobalValue::DefaultVisibility);
    global.setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::None);
  }
  if (moved == 0)
    return nullptr;
  return data;
}

// The object file of a module of data only (no code to optimize).
bool emitData(llvm::Module &data, std::string &object, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine = hostMachine(0, error);
  if (!machine)
    return false;
  llvm::raw_string_ostream stream(object);
  llvm::buffer_ostream buffered(stream);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, buffered, nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit object files";
    return false;
  }
  passes.run(data);
  return true;
}

} // namespace

// Translates `module` (in the LLVM dialect) to LLVM IR, optimizes it at
// `optLevel`, and generates machine code in up to `parts` object files on as
// many threads; calls `onObject` with each. On failure calls `onError` with
// the reason and returns false.
extern "C" bool schedCompileObjects(MlirOperation module, int optLevel,
                                    int parts, MlirStringCallback onObject,
                                    void *objectData, MlirStringCallback onError,
                                    void *errorData) {
  auto fail = [&](const std::string &why) {
    onError(mlirStringRefCreate(why.data(), why.size()), errorData);
    return false;
  };
  static const bool targets = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Inline assembly (the AVX2 8 x 8 transpose's `vblendps`,
    // `transposes.cpp`) is parsed when the object is emitted.
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)targets;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(unwrap(module), context);
  if (!llvmModule)
    return fail("the module does not translate to LLVM IR");
  std::string error;
  std::unique_ptr<llvm::TargetMachine> machine = hostMachine(optLevel, error);
  if (!machine)
    return fail(error);
  mlir::ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(),
                                                        machine.get());
  addPackedWrappers(*llvmModule);
  inlineEntriesIntoInterfaces(*llvmModule);
  // No more parts than functions to compile: the others would be empty.
  int functions = 0;
  for (llvm::Function &function : *llvmModule)
    functions += !function.isDeclaration();
  parts = std::min(parts, functions);
  if (parts <= 1) {
    std::string object;
    if (!optimizeAndEmit(*llvmModule, *machine, optLevel, object, error))
      return fail(error);
    onObject(mlirStringRefCreate(object.data(), object.size()), objectData);
    return true;
  }
  propagateConstants(*llvmModule, machine.get());
  // Constant data of 64 KiB or more is emitted apart from the code.
  std::unique_ptr<llvm::Module> data = takeLargeConstants(*llvmModule, 64 << 10);

  std::vector<llvm::SmallString<0>> bitcodes;
  llvm::SplitModule(
      *llvmModule, parts,
      [&](std::unique_ptr<llvm::Module> part) {
        llvm::SmallString<0> bitcode;
        llvm::raw_svector_ostream stream(bitcode);
        llvm::WriteBitcodeToFile(*part, stream);
        bitcodes.push_back(std::move(bitcode));
      },
      /*PreserveLocals=*/false);
  std::vector<std::string> objects(bitcodes.size());
  std::vector<std::string> errors(bitcodes.size());
  std::vector<char> done(bitcodes.size(), 0);
  std::vector<std::thread> threads;
  for (size_t i = 1; i < bitcodes.size(); ++i)
    threads.emplace_back([&, i] {
      done[i] = emitPart(bitcodes[i], optLevel, objects[i], errors[i]);
    });
  std::string dataObject, dataError;
  bool dataDone = !data || emitData(*data, dataObject, dataError);
  if (!bitcodes.empty())
    done[0] = emitPart(bitcodes[0], optLevel, objects[0], errors[0]);
  for (std::thread &thread : threads)
    thread.join();
  if (!dataDone)
    return fail(dataError);
  for (size_t i = 0; i < bitcodes.size(); ++i)
    if (!done[i])
      return fail(errors[i]);
  if (data)
    objects.push_back(std::move(dataObject));
  for (const std::string &object : objects)
    onObject(mlirStringRefCreate(object.data(), object.size()), objectData);
  return true;
}
