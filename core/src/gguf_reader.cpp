// GGUF header reader, written from the format description in ggml's docs/gguf.md: magic "GGUF",
// version, tensor count, metadata count, typed key/value pairs, tensor infos, aligned data.
// Every read is checked against the remaining bytes; counts, lengths and sizes are capped and
// overflow-checked, as ggml/src/gguf.cpp does.
#include "llmcalc/gguf_reader.h"

#include <cstring>
#include <limits>

#include "llmcalc/catalog.h"
#include "llmcalc/model.h"

namespace llmcalc {
namespace {

enum GgufValueType : uint32_t {
  kU8 = 0, kI8 = 1, kU16 = 2, kI16 = 3, kU32 = 4, kI32 = 5, kF32 = 6, kBool = 7, kString = 8,
  kArray = 9, kU64 = 10, kI64 = 11, kF64 = 12
};

// Thrown inside the reader only: "the buffer ended" vs "the file is wrong".
struct Truncated {};
struct Invalid {
  std::string code;
  std::string message;
};

class Cursor {
 public:
  Cursor(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  template <typename T>
  T scalar() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, data_ + pos_, sizeof(T));  // GGUF is little-endian, as are wasm and x86
    pos_ += sizeof(T);
    return value;
  }

  std::string string(uint64_t max_bytes) {
    uint64_t length = scalar<uint64_t>();
    if (length > max_bytes) throw Invalid{"gguf_string_too_long", "A string is longer than the limit."};
    need(length);
    std::string out(reinterpret_cast<const char*>(data_ + pos_), static_cast<std::size_t>(length));
    pos_ += static_cast<std::size_t>(length);
    return out;
  }

  void skip(uint64_t bytes) {
    need(bytes);
    pos_ += static_cast<std::size_t>(bytes);
  }

  std::size_t position() const { return pos_; }

 private:
  void need(uint64_t bytes) {
    if (bytes > size_ - pos_) throw Truncated{};
  }
  const uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
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
    default: throw Invalid{"gguf_bad_value_type", "Unknown metadata value type."};
  }
}

// Arrays keep up to kMaxLayers leading numeric values (per-layer lists) and their length; the
// rest of longer arrays (tokenizer vocabularies and scores) is skipped without storing it.
nlohmann::json read_array(Cursor& c) {
  uint32_t type = c.scalar<uint32_t>();
  uint64_t length = c.scalar<uint64_t>();
  if (length > kGgufMaxArrayLength) throw Invalid{"gguf_array_too_long", "An array is longer than the limit."};
  if (type == kArray) throw Invalid{"gguf_nested_array", "Nested arrays are not supported."};
  nlohmann::json out = {{"array_type", type}, {"length", length}};
  nlohmann::json values = nlohmann::json::array();
  uint64_t size = scalar_size(type);
  for (uint64_t i = 0; i < length; ++i) {
    if (type == kString) {
      uint64_t bytes = c.scalar<uint64_t>();
      if (bytes > kGgufMaxStringBytes) throw Invalid{"gguf_string_too_long", "A string is longer than the limit."};
      c.skip(bytes);
    } else if (size == 0) {
      throw Invalid{"gguf_bad_value_type", "Unknown array element type."};
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

// a * b with overflow reported as invalid.
int64_t checked_mul(int64_t a, int64_t b) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
    throw Invalid{"gguf_size_overflow", "A tensor's size overflows."};
  }
  return a * b;
}

GgufHeader parse(Cursor& c, uint64_t file_size) {
  char magic[4];
  for (char& ch : magic) ch = static_cast<char>(c.scalar<uint8_t>());
  if (std::memcmp(magic, "GGUF", 4) != 0) throw Invalid{"gguf_bad_magic", "This is not a GGUF file."};
  GgufHeader h;
  h.version = c.scalar<uint32_t>();
  if (h.version < 2 || h.version > 3) {
    throw Invalid{"gguf_bad_version", "Only GGUF versions 2 and 3 are supported."};
  }
  uint64_t n_tensors = c.scalar<uint64_t>();
  uint64_t n_keys = c.scalar<uint64_t>();
  if (n_tensors > kGgufMaxTensors) throw Invalid{"gguf_too_many_tensors", "More tensors than the limit."};
  if (n_keys > kGgufMaxKeys) throw Invalid{"gguf_too_many_keys", "More metadata keys than the limit."};
  for (uint64_t i = 0; i < n_keys; ++i) {
    std::string key = c.string(65536);
    uint32_t type = c.scalar<uint32_t>();
    h.metadata[key] = type == kArray ? read_array(c) : read_scalar(c, type);
  }
  const Catalog& catalog = Catalog::instance();
  h.tensors.reserve(static_cast<std::size_t>(n_tensors));
  for (uint64_t i = 0; i < n_tensors; ++i) {
    GgufTensor t;
    t.name = c.string(65536);
    uint32_t n_dims = c.scalar<uint32_t>();
    if (n_dims == 0 || n_dims > kGgufMaxDims) throw Invalid{"gguf_bad_dims", "A tensor has an invalid number of dimensions."};
    int64_t elements = 1;
    for (uint32_t d = 0; d < n_dims; ++d) {
      uint64_t dim = c.scalar<uint64_t>();
      if (dim == 0 || dim > (uint64_t{1} << 40)) throw Invalid{"gguf_bad_dims", "A tensor dimension is out of range."};
      t.shape.push_back(static_cast<int64_t>(dim));
      elements = checked_mul(elements, static_cast<int64_t>(dim));
    }
    uint32_t type_id = c.scalar<uint32_t>();
    const GgmlType* type = catalog.find_ggml_type_id(type_id);
    if (!type) throw Invalid{"gguf_unknown_type", "Tensor '" + t.name.substr(0, 80) + "' has an unknown ggml type."};
    if (t.shape[0] % type->block_elements != 0) {
      throw Invalid{"gguf_bad_block", "Tensor '" + t.name.substr(0, 80) + "' rows are not whole blocks."};
    }
    t.type = type->name;
    t.bytes = checked_mul(elements / type->block_elements, type->type_size_bytes);
    t.offset = c.scalar<uint64_t>();
    if (h.tensor_data_bytes > std::numeric_limits<int64_t>::max() - t.bytes) {
      throw Invalid{"gguf_size_overflow", "Tensor sizes overflow."};
    }
    h.tensor_data_bytes += t.bytes;
    h.tensors.push_back(std::move(t));
  }
  uint64_t alignment = 32;
  if (h.metadata.contains("general.alignment") && h.metadata["general.alignment"].is_number_unsigned()) {
    alignment = h.metadata["general.alignment"].get<uint64_t>();
    if (alignment == 0 || alignment > 65536 || (alignment & (alignment - 1)) != 0) {
      throw Invalid{"gguf_bad_alignment", "general.alignment must be a power of two."};
    }
  }
  h.data_offset = (c.position() + alignment - 1) / alignment * alignment;
  if (file_size > 0) {
    for (const GgufTensor& t : h.tensors) {
      uint64_t end = h.data_offset + t.offset;
      if (t.offset > file_size || end < h.data_offset || end > file_size ||
          static_cast<uint64_t>(t.bytes) > file_size - end) {
        throw Invalid{"gguf_tensor_out_of_file", "Tensor '" + t.name.substr(0, 80) + "' lies outside the file."};
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
  try {
    result.header = parse(cursor, file_size);
    result.status = GgufReadStatus::ok;
  } catch (const Truncated&) {
    if (file_size > 0 && size >= file_size) {
      issues.error("gguf_truncated", path, "The file ends inside its header.");
      result.status = GgufReadStatus::invalid;
    } else {
      result.status = GgufReadStatus::need_more_bytes;
      result.bytes_needed = size < 1024 ? 1 << 20 : static_cast<uint64_t>(size) * 2;
      if (file_size > 0 && result.bytes_needed > file_size) result.bytes_needed = file_size;
    }
  } catch (const Invalid& invalid) {
    issues.error(invalid.code, path, invalid.message);
    result.status = GgufReadStatus::invalid;
  }
  return result;
}

}  // namespace llmcalc
