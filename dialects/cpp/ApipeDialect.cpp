//===- ApipeDialect.cpp - the apipe dialect in C++ ------------------------===//
//
// The hand-written part of the C++ apipe dialect; everything else is
// generated from `dialects/apipe/ApipeOps.td`:
//  1. the dialect's `initialize` (the list of ops and types);
//  2. the custom assembly of `apipe.copy`, which the ODS format language
//     cannot express (it cannot split the one `indices` operand list by the
//     ranks of the memref types that follow it), and its structural verifier
//     (the index count must fit the ranks for that assembly to print);
//  3. the `custom<TokenResult>` directive of `apipe.commit_group`: the
//     optional token result has no type in the syntax, so the number of
//     result names the parser saw decides it;
//  4. the C API dialect handle behind `apipe-c/Dialect.h`.
// The semantic checks (positive `elements`, zero-fill bounds, annotations)
// live in the Rust verifier (`dialects/src/verifier.rs`), which runs after
// parsing and after every pass.
//
//===----------------------------------------------------------------------===//

#include "ApipeDialect.h"

#include "mlir-c/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::apipe;

#include "ApipeOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ApipeOpsTypes.cpp.inc"

void ApipeDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ApipeOpsTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ApipeOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// custom<TokenResult>: `%t = apipe.commit_group` has a token, a bare
// `apipe.commit_group` has none.
//===----------------------------------------------------------------------===//

static ParseResult parseTokenResult(OpAsmParser &parser, Type &type) {
  if (parser.getNumResults() > 0)
    type = TokenType::get(parser.getContext());
  return success();
}

static void printTokenResult(OpAsmPrinter &, Operation *, Type) {}

#define GET_OP_CLASSES
#include "ApipeOps.cpp.inc"

//===----------------------------------------------------------------------===//
// apipe.copy
//
//   apipe.copy %src[%i, ...], %dst[%j, ...], ELEMENTS (, %src_elements)?
//       (queue Q)? attr-dict : SRC-TYPE to DST-TYPE
//===----------------------------------------------------------------------===//

/// `type` as printed, without the quotes a diagnostic adds, so that these
/// messages read as the Rust verifier's do.
static std::string str(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The ranks of a copy's memrefs; `std::nullopt` unless both are ranked.
static std::optional<std::pair<int64_t, int64_t>> copyRanks(Type src,
                                                            Type dst) {
  auto srcType = dyn_cast<MemRefType>(src);
  auto dstType = dyn_cast<MemRefType>(dst);
  if (!srcType || !dstType)
    return std::nullopt;
  return std::make_pair(srcType.getRank(), dstType.getRank());
}

ParseResult mlir::apipe::parseCountInteger(OpAsmParser &parser,
                                           int64_t &value, StringRef name) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("true")) ||
      succeeded(parser.parseOptionalKeyword("false")))
    return parser.emitError(loc, "expected an integer for '")
           << name << "', got a boolean";
  return parser.parseInteger(value);
}

ParseResult CopyOp::parse(OpAsmParser &parser, OperationState &result) {
  using Operand = OpAsmParser::UnresolvedOperand;
  Operand src, dst;
  SmallVector<Operand, 4> srcIndices, dstIndices;
  std::optional<Operand> srcElements;
  int64_t elements = 0;
  SMLoc srcLoc = parser.getCurrentLocation();
  if (parser.parseOperand(src) ||
      parser.parseOperandList(srcIndices, AsmParser::Delimiter::Square) ||
      parser.parseComma())
    return failure();
  SMLoc dstLoc = parser.getCurrentLocation();
  if (parser.parseOperand(dst) ||
      parser.parseOperandList(dstIndices, AsmParser::Delimiter::Square) ||
      parser.parseComma() ||
      parseCountInteger(parser, elements, "elements"))
    return failure();
  Builder &builder = parser.getBuilder();
  result.addAttribute(getElementsAttrName(result.name),
                      builder.getI64IntegerAttr(elements));
  if (succeeded(parser.parseOptionalComma())) {
    Operand operand;
    if (parser.parseOperand(operand))
      return failure();
    srcElements = operand;
  }
  if (succeeded(parser.parseOptionalKeyword("queue"))) {
    int64_t queue = 0;
    if (parseCountInteger(parser, queue, "queue"))
      return failure();
    result.addAttribute(getQueueAttrName(result.name),
                        builder.getI64IntegerAttr(queue));
  }
  Type srcType, dstType;
  SMLoc typeLoc;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typeLoc) || parser.parseType(srcType) ||
      parser.parseKeyword("to") || parser.parseType(dstType))
    return failure();

  // Split check: each memref gets exactly as many indices as its rank.
  std::optional<std::pair<int64_t, int64_t>> ranks =
      copyRanks(srcType, dstType);
  if (!ranks)
    return parser.emitError(typeLoc)
           << "expected ranked memrefs for src and dst, got " << str(srcType)
           << " and " << str(dstType);
  if (static_cast<int64_t>(srcIndices.size()) != ranks->first)
    return parser.emitError(srcLoc)
           << "expected " << ranks->first << " source indices for "
           << str(srcType) << ", got " << srcIndices.size();
  if (static_cast<int64_t>(dstIndices.size()) != ranks->second)
    return parser.emitError(dstLoc)
           << "expected " << ranks->second << " destination indices for "
           << str(dstType) << ", got " << dstIndices.size();

  Type indexType = builder.getIndexType();
  if (parser.resolveOperand(src, srcType, result.operands) ||
      parser.resolveOperand(dst, dstType, result.operands) ||
      parser.resolveOperands(srcIndices, indexType, result.operands) ||
      parser.resolveOperands(dstIndices, indexType, result.operands) ||
      (srcElements &&
       parser.resolveOperand(*srcElements, indexType, result.operands)))
    return failure();
  return success();
}

void CopyOp::print(OpAsmPrinter &p) {
  ValueRange indices = getIndices();
  // The verifier guarantees that the counts fit; the clamps keep printing
  // of unverified IR (under `assumeVerified`) within bounds.
  std::optional<std::pair<int64_t, int64_t>> ranks =
      copyRanks(getSrc().getType(), getDst().getType());
  size_t srcCount = ranks ? std::min<size_t>(ranks->first, indices.size()) : 0;
  size_t dstCount =
      ranks ? std::min<size_t>(ranks->second, indices.size() - srcCount) : 0;
  p << ' ' << getSrc() << '[' << indices.take_front(srcCount) << "], "
    << getDst() << '[' << indices.drop_front(srcCount).take_front(dstCount)
    << "], " << getElementsAttr().getInt();
  for (Value extra : indices.drop_front(srcCount + dstCount))
    p << ", " << extra;
  // Signed: the Rust verifier reports a negative queue or element count, and
  // the printed form must show it as written.
  if (IntegerAttr queue = getQueueAttr())
    p << " queue " << queue.getInt();
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getElementsAttrName(), getQueueAttrName()});
  p << " : " << getSrc().getType() << " to " << getDst().getType();
}

LogicalResult CopyOp::verify() {
  std::optional<std::pair<int64_t, int64_t>> ranks =
      copyRanks(getSrc().getType(), getDst().getType());
  if (!ranks)
    return emitOpError() << "expected ranked memrefs for src and dst, got "
                         << str(getSrc().getType()) << " and "
                         << str(getDst().getType());
  int64_t expected = ranks->first + ranks->second;
  int64_t count = getIndices().size();
  if (count != expected && count != expected + 1)
    return emitOpError() << "expected " << expected << " indices ("
                         << ranks->first << " for " << str(getSrc().getType())
                         << " and " << ranks->second << " for "
                         << str(getDst().getType()) << "), or " << expected + 1
                         << " with src_elements, got " << count;
  return success();
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

// Defines `mlirGetDialectHandle__apipe_cpp__`. The public name of
// `apipe-c/Dialect.h`, `mlirGetDialectHandle__apipe__`, is a Rust function
// that returns this handle (dialects/src/lib.rs): a Rust shared library
// (the plugin) exports only the symbols Rust defines.
extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Apipe, apipe_cpp);
}
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Apipe, apipe_cpp,
                                      mlir::apipe::ApipeDialect)
