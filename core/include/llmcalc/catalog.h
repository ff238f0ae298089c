// The built-in catalog: models, devices and format facts parsed once from embedded data/.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace llmcalc {

// A data/models/<id>.json record, parsed when first read (the first estimate needs one model, not
// all of them).
struct CatalogModel {
  std::string id;
  const char* text = nullptr;  // the embedded JSON text
  const nlohmann::json& record() const;
  // The record's config, or for a fine-tune that has only its base's shapes ("config_same_as":
  // the base's id) the base's.
  const nlohmann::json& config() const;
  // Where the config was read: the record's "source", which the module's data leaves out where
  // it is the Hub's config.json of the record's hf_repo (cmake/embed_data.mjs).
  std::string source() const;
  // Its published GGUF files hold the MTP layers as blocks (the record's gguf_mtp_block, with
  // its evidence in data/models).
  bool gguf_holds_mtp() const { return record().contains("gguf_mtp_block"); }

 private:
  mutable std::optional<nlohmann::json> parsed_;
};

struct CatalogDevice {
  std::string id;
  nlohmann::json record;  // the whole data/devices/<id>.json record
};

struct GgmlType {
  std::string name;
  int64_t block_elements = 1;
  int64_t type_size_bytes = 1;
  int ggml_type_id = -1;  // enum ggml_type value, as stored in GGUF tensor infos
  double bits_per_weight() const {
    return 8.0 * static_cast<double>(type_size_bytes) / static_cast<double>(block_elements);
  }
};

class Catalog {
 public:
  /// The process-wide catalog, parsed on first use. Throws if embedded data is malformed (a build
  /// defect, caught by the catalog tests), never because of user input.
  static const Catalog& instance();

  const CatalogModel* find_model(const std::string& id) const;
  const CatalogDevice* find_device(const std::string& id) const;
  const GgmlType* find_ggml_type(const std::string& name) const;
  const GgmlType* find_ggml_type_id(int64_t id) const;
  /// Any other data file by its path under data/ ("cloud_offers.json"); null JSON if absent.
  const nlohmann::json& document(const std::string& path) const;
  /// transformers' defaults for a nested config's model_type (data/config_defaults.json).
  const nlohmann::json* config_defaults(const std::string& model_type) const;

  const std::vector<CatalogModel>& models() const { return models_; }
  const std::vector<CatalogDevice>& devices() const { return devices_; }
  const std::vector<GgmlType>& ggml_types() const { return ggml_types_; }

 private:
  Catalog();
  std::vector<CatalogModel> models_;
  std::vector<CatalogDevice> devices_;
  std::vector<GgmlType> ggml_types_;
  std::map<std::string, std::size_t> model_index_;
  std::map<std::string, std::size_t> device_index_;
  std::map<std::string, std::size_t> ggml_index_;
  std::map<std::string, nlohmann::json> config_defaults_;
  std::map<std::string, nlohmann::json> documents_;
};

}  // namespace llmcalc
