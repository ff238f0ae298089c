// GGUF header reader, written from the format description in ggml's docs/gguf.md: magic "GGUF",
// version, tensor count, metadata count, typed key/value pairs, tensor infos, aligned data.
// Every read is checked against the remaining bytes; counts, lengths and sizes are capped and
// overflow-checked, as ggml/src/gguf.cpp does.
#include "llmcalc/gguf_reader.h"

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "llmcalc/catalog.h"
#include "llmcalc/model.h"

namespace llmcalc {
namespace {

enum GgufValueType : uint32_t {
  kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7, kString = 8,
  kArray = 9, kU64 = 10, kI64 = 11, kF64 = 12
};

// Reads little-endian values and strings, checked against the bytes left. The first failure
// stops every later read: "the buffer ended" (more bytes may help) or "the file is wrong".
class Cursor {
 public:
  Cursor(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  template <typename T>
  T scalar() {
    T value{};
    if (!need(sizeof(T))) return value;
    std::memcpy(&value, data_ + pos_, sizeof(T));  // GGUF is little-endian, as are wasm and x86
    pos_ += sizeof(T);
    return value;
  }

  std::string string(uint64_t max_bytes) {
    uint64_t length = scalar<uint64_t>();
    if (length > max_bytes) fail("gguf_string_too_long", "A string is longer than the limit.");
    if (!need(length)) return {};
    std::string out(reinterpret_cast<const char*>(data_ + pos_), static_cast<std::size_t>(length));
    pos_ += static_cast<std::size_t>(length);
    return out;
  }

  void skip(uint64_t bytes) {
    if (need(bytes)) pos_ += static_cast<std::size_t>(bytes);
  }

  // Marks the file invalid unless an earlier read already failed.
  void fail(std::string code, std::string message) {
    if (failed()) return;
    code_ = std::move(code);
    message_ = std::move(message);
  }

  bool failed() const { return truncated_ || !code_.empty(); }
  bool truncated() const { return truncated_; }
  const std::string& code() const { return code_; }
  const std::string& message() const { return message_; }
  std::size_t position() const { return pos_; }

 private:
  bool need(uint64_t bytes) {
    if (failed()) return false;
    if (bytes > size_ - pos_) truncated_ = true;
    return !truncated_;
  }
  const uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  bool truncated_ = false;
  std::string code_;
  std::string message_;
};

uint64_t scalar_size(uint32_t type) {
  switch (type) {
    case kU8: case kI8: case kBool: return 1;
    case kU16: case kI16: return 2;
    case kU32: case kI32: case kF32: return 4;
    case kU64: case kI64: case kF64: return 8;
    default: return 0;
  }
}

nlohmann::json read_scalar(Cursor& c, uint32_t type) {
  switch (type) {
    case kU8: return c.scalar<uint8_t>();
    case kI8: return c.scalar<int8_t>();
    case kU16: return c.scalar<uint16_t>();
    case kI16: return c.scalar<int16_t>();
    case kU32: return c.scalar<uint32_t>();
    case kI32: return c.scalar<int32_t>();
    case kF32: {
      float f = c.scalar<float>();
      return f == f && f - f == 0 ? nlohmann::json(f) : nlohmann::json(nullptr);  // no NaN/inf
    }
    case kBool: return c.scalar<uint8_t>() != 0;
    case kU64: return c.scalar<uint64_t>();
    case kI64: return c.scalar<int64_t>();
    case kF64: {
      double d = c.scalar<double>();
      return d == d && d - d == 0 ? nlohmann::json(d) : nlohmann::json(nullptr);
    }
    case kString: return c.string(kGgufMaxStringBytes);
    default:
      c.fail("gguf_bad_value_type", "Unknown metadata value type.");
      return nullptr;
  }
}

// Arrays keep up to kMaxLayers leading numeric values (per-layer lists) and their length; the
// rest of longer arrays (tokenizer vocabularies and scores) is skipped without storing it.
nlohmann::json read_array(Cursor& c) {
  uint32_t type = c.scalar<uint32_t>();
  uint64_t length = c.scalar<uint64_t>();
  if (length > kGgufMaxArrayLength) c.fail("gguf_array_too_long", "An array is longer than the limit.");
  if (type == kArray) c.fail("gguf_nested_array", "Nested arrays are not supported.");
  nlohmann::json out = {{"array_type", type}, {"length", length}};
  nlohmann::json values = nlohmann::json::array();
  uint64_t size = scalar_size(type);
  for (uint64_t i = 0; i < length && !c.failed(); ++i) {
    if (type == kString) {
      uint64_t bytes = c.scalar<uint64_t>();
      if (bytes > kGgufMaxStringBytes) c.fail("gguf_string_too_long", "A string is longer than the limit.");
      c.skip(bytes);
    } else if (size == 0) {
      c.fail("gguf_bad_value_type", "Unknown array element type.");
    } else if (i < static_cast<uint64_t>(kMaxLayers)) {
      values.push_back(read_scalar(c, type));
    } else {
      c.skip(size * (length - i));
      break;
    }
  }
  if (!values.empty()) out["values"] = values;
  return out;
}

// a * b, or nothing on overflow (the file is marked invalid).
std::optional<int64_t> checked_mul(Cursor& c, int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
    c.fail("gguf_size_overflow", "A tensor's size overflows.");
    return std::nullopt;
  }
  return a * b;
}

// The header, or whatever was read before `c` failed (the caller reads the failure from `c`).
GgufHeader parse(Cursor& c, uint64_t file_size) {
  GgufHeader h;
  char magic[4];
  for (char& ch : magic) ch = static_cast<char>(c.scalar<uint8_t>());
  if (std::memcmp(magic, "GGUF", 4) != 0) c.fail("gguf_bad_magic", "This is not a GGUF file.");
  h.version = c.scalar<uint32_t>();
  if (h.version < 2 || h.version > 3) c.fail("gguf_bad_version", "Only GGUF versions 2 and 3 are supported.");
  uint64_t n_tensors = c.scalar<uint64_t>();
  uint64_t n_keys = c.scalar<uint64_t>();
  if (n_tensors > kGgufMaxTensors) c.fail("gguf_too_many_tensors", "More tensors than the limit.");
  if (n_keys > kGgufMaxKeys) c.fail("gguf_too_many_keys", "More metadata keys than the limit.");
  for (uint64_t i = 0; i < n_keys && !c.failed(); ++i) {
    std::string key = c.string(65536);
    uint32_t type = c.scalar<uint32_t>();
    h.metadata[key] = type == kArray ? read_array(c) : read_scalar(c, type);
  }
  const Catalog& catalog = Catalog::instance();
  if (!c.failed()) h.tensors.reserve(static_cast<std::size_t>(n_tensors));
  for (uint64_t i = 0; i < n_tensors && !c.failed(); ++i) {
    GgufTensor t;
    t.name = c.string(65536);
    uint32_t n_dims = c.scalar<uint32_t>();
    if (n_dims == 0 || n_dims > kGgufMaxDims) c.fail("gguf_bad_dims", "A tensor has an invalid number of dimensions.");
    std::optional<int64_t> elements = 1;
    for (uint32_t d = 0; d < n_dims && !c.failed(); ++d) {
      uint64_t dim = c.scalar<uint64_t>();
      if (dim == 0 || dim > (uint64_t{1} << 40)) c.fail("gguf_bad_dims", "A tensor dimension is out of range.");
      if (c.failed()) break;
      t.shape.push_back(static_cast<int64_t>(dim));
      elements = checked_mul(c, *elements, static_cast<int64_t>(dim));
    }
    uint32_t type_id = c.scalar<uint32_t>();
    if (c.failed()) break;
    const GgmlType* type = catalog.find_ggml_type_id(type_id);
    if (!type) {
      c.fail("gguf_unknown_type", "Tensor '" + t.name.substr(0, 80) + "' has an unknown ggml type.");
      break;
    }
    if (t.shape[0] % type->block_elements != 0) {
      c.fail("gguf_bad_block", "Tensor '" + t.name.substr(0, 80) + "' rows are not whole blocks.");
      break;
    }
    t.type = type->name;
    std::optional<int64_t> bytes = checked_mul(c, *elements / type->block_elements, type->type_size_bytes);
    t.offset = c.scalar<uint64_t>();
    if (!bytes || c.failed()) break;
    t.bytes = *bytes;
    if (h.tensor_data_bytes > std::numeric_limits<int64_t>::max() - t.bytes) {
      c.fail("gguf_size_overflow", "Tensor sizes overflow.");
      break;
    }
    h.tensor_data_bytes += t.bytes;
    h.tensors.push_back(std::move(t));
  }
  if (c.failed()) return h;
  uint64_t alignment = 32;
  if (h.metadata.contains("general.alignment") && h.metadata["general.alignment"].is_number_unsigned()) {
    alignment = h.metadata["general.alignment"].get<uint64_t>();
    if (alignment == 0 || alignment > 65536 || (alignment & (alignment - 1)) != 0) {
      c.fail("gguf_bad_alignment", "general.alignment must be a power of two.");
      return h;
    }
  }
  h.data_offset = (c.position() + alignment - 1) / alignment * alignment;
  if (file_size > 0) {
    for (const GgufTensor& t : h.tensors) {
      uint64_t end = h.data_offset + t.offset;
      if (t.offset > file_size || end < h.data_offset || end > file_size ||
          static_cast<uint64_t>(t.bytes) > file_size - end) {
        c.fail("gguf_tensor_out_of_file", "Tensor '" + t.name.substr(0, 80) + "' lies outside the file.");
        break;
      }
    }
  }
  return h;
}

}  // namespace

GgufReadResult read_gguf_header(const uint8_t* data, std::size_t size, uint64_t file_size,
                                const std::string& path, Issues& issues) {
  GgufReadResult result;
  Cursor cursor(data, size);
  GgufHeader header = parse(cursor, file_size);
  if (cursor.truncated()) {
    if (file_size > 0 && size >= file_size) {
      issues.error("gguf_truncated", path, "The file ends inside its header.");
      result.status = GgufReadStatus::invalid;
    } else {
      result.status = GgufReadStatus::need_more_bytes;
      result.bytes_needed = size < 1024 ? 1 << 20 : static_cast<uint64_t>(size) * 2;
      if (file_size > 0 && result.bytes_needed > file_size) result.bytes_needed = file_size;
    }
  } else if (cursor.failed()) {
    issues.error(cursor.code(), path, cursor.message());
    result.status = GgufReadStatus::invalid;
  } else {
    result.header = std::move(header);
    result.status = GgufReadStatus::ok;
  }
  return result;
}

}  // namespace llmcalc
