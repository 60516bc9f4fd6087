//===- ApipeBulkCopy.cpp - custom assembly of apipe.bulk_copy -------------===//
//
// The custom assembly and structural verifier of `apipe.bulk_copy` (the
// mbarrier form, docs/mbarrier.md), in the style of `apipe.copy`
// (ApipeDialect.cpp): the one `indices` operand list is split by the ranks
// of the memref types that follow it, which the ODS format language cannot
// express.
//
//   apipe.bulk_copy %src[%i, ...], %dst[%j, ...], ELEMENTS, %ring[%slot]
//       attr-dict : SRC-TYPE to DST-TYPE, RING-TYPE
//
// Generic form: (src, dst, ring, slot, src indices..., dst indices...).
// The semantic checks (sizes, alignment, ring shape) live in the Rust
// verifier (`dialects/src/verifier.rs`).
//
//===----------------------------------------------------------------------===//

#include "ApipeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::apipe;

/// `type` as printed, without the quotes a diagnostic adds.
static std::string str(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The rank of `type` if it is a ranked memref.
static std::optional<int64_t> rankOf(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getRank();
  return std::nullopt;
}

ParseResult BulkCopyOp::parse(OpAsmParser &parser, OperationState &result) {
  using Operand = OpAsmParser::UnresolvedOperand;
  Operand src, dst, ring, slot;
  SmallVector<Operand, 4> srcIndices, dstIndices;
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
      parseCountInteger(parser, elements, "elements") ||
      parser.parseComma() || parser.parseOperand(ring) ||
      parser.parseLSquare() || parser.parseOperand(slot) ||
      parser.parseRSquare())
    return failure();
  Builder &builder = parser.getBuilder();
  result.addAttribute(getElementsAttrName(result.name),
                      builder.getI64IntegerAttr(elements));
  Type srcType, dstType, ringType;
  SMLoc typeLoc;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.getCurrentLocation(&typeLoc) || parser.parseType(srcType) ||
      parser.parseKeyword("to") || parser.parseType(dstType) ||
      parser.parseComma() || parser.parseType(ringType))
    return failure();
  std::optional<int64_t> srcRank = rankOf(srcType), dstRank = rankOf(dstType);
  if (!srcRank || !dstRank)
    return parser.emitError(typeLoc)
           << "expected ranked memrefs for src and dst, got " << str(srcType)
           << " and " << str(dstType);
  if (static_cast<int64_t>(srcIndices.size()) != *srcRank)
    return parser.emitError(srcLoc)
           << "expected " << *srcRank << " source indices for "
           << str(srcType) << ", got " << srcIndices.size();
  if (static_cast<int64_t>(dstIndices.size()) != *dstRank)
    return parser.emitError(dstLoc)
           << "expected " << *dstRank << " destination indices for "
           << str(dstType) << ", got " << dstIndices.size();
  Type indexType = builder.getIndexType();
  if (parser.resolveOperand(src, srcType, result.operands) ||
      parser.resolveOperand(dst, dstType, result.operands) ||
      parser.resolveOperand(ring, ringType, result.operands) ||
      parser.resolveOperand(slot, indexType, result.operands) ||
      parser.resolveOperands(srcIndices, indexType, result.operands) ||
      parser.resolveOperands(dstIndices, indexType, result.operands))
    return failure();
  return success();
}

void BulkCopyOp::print(OpAsmPrinter &p) {
  ValueRange indices = getIndices();
  // The verifier guarantees that the counts fit; the clamps keep printing
  // of unverified IR within bounds.
  size_t srcCount = std::min<size_t>(
      rankOf(getSrc().getType()).value_or(0), indices.size());
  size_t dstCount = indices.size() - srcCount;
  p << ' ' << getSrc() << '[' << indices.take_front(srcCount) << "], "
    << getDst() << '[' << indices.drop_front(srcCount).take_front(dstCount)
    << "], " << getElementsAttr().getInt() << ", " << getRing() << '['
    << getSlot() << ']';
  p.printOptionalAttrDict((*this)->getAttrs(), {getElementsAttrName()});
  p << " : " << getSrc().getType() << " to " << getDst().getType() << ", "
    << getRing().getType();
}

LogicalResult BulkCopyOp::verify() {
  std::optional<int64_t> srcRank = rankOf(getSrc().getType());
  std::optional<int64_t> dstRank = rankOf(getDst().getType());
  if (!srcRank || !dstRank)
    return emitOpError() << "expected ranked memrefs for src and dst, got "
                         << str(getSrc().getType()) << " and "
                         << str(getDst().getType());
  int64_t expected = *srcRank + *dstRank;
  if (static_cast<int64_t>(getIndices().size()) != expected)
    return emitOpError() << "expected " << expected << " indices ("
                         << *srcRank << " for " << str(getSrc().getType())
                         << " and " << *dstRank << " for "
                         << str(getDst().getType()) << "), got "
                         << getIndices().size();
  return success();
}
