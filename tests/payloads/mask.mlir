// Boolean (`i1`) and `i8` tensors in and out: a mask, its rows' `and`, a
// select of each row by that row's flag, and an `i8` negated where the mask
// is false.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i, 0)>
func.func @masked(%x: tensor<8x64xf32>, %keep: tensor<8x64xi1>, %q: tensor<8x64xi8>)
    -> (tensor<8x64xi1>, tensor<8x1xi1>, tensor<8x64xf32>, tensor<8x64xi8>) {
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %qzero = arith.constant 0 : i8
  %eb = tensor.empty() : tensor<8x64xi1>
  %pos = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %keep : tensor<8x64xf32>, tensor<8x64xi1>) outs(%eb : tensor<8x64xi1>) {
  ^bb0(%a: f32, %k: i1, %o: i1):
    %c = arith.cmpf ogt, %a, %zero : f32
    %both = arith.andi %c, %k : i1
    linalg.yield %both : i1
  } -> tensor<8x64xi1>
  %er = tensor.empty() : tensor<8x1xi1>
  %init = linalg.fill ins(%true : i1) outs(%er : tensor<8x1xi1>) -> tensor<8x1xi1>
  %all = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%pos : tensor<8x64xi1>) outs(%init : tensor<8x1xi1>) {
  ^bb0(%p: i1, %o: i1):
    %r = arith.andi %p, %o : i1
    linalg.yield %r : i1
  } -> tensor<8x1xi1>
  %ef = tensor.empty() : tensor<8x64xf32>
  %sel = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%all, %x : tensor<8x1xi1>, tensor<8x64xf32>) outs(%ef : tensor<8x64xf32>) {
  ^bb0(%k: i1, %a: f32, %o: f32):
    %s = arith.select %k, %a, %zero : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %eq = tensor.empty() : tensor<8x64xi8>
  %signed = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%keep, %q : tensor<8x64xi1>, tensor<8x64xi8>) outs(%eq : tensor<8x64xi8>) {
  ^bb0(%k: i1, %v: i8, %o: i8):
    %n = arith.subi %qzero, %v : i8
    %s = arith.select %k, %v, %n : i8
    linalg.yield %s : i8
  } -> tensor<8x64xi8>
  return %pos, %all, %sel, %signed : tensor<8x64xi1>, tensor<8x1xi1>, tensor<8x64xf32>, tensor<8x64xi8>
}
