// Reads the embedded data/ files into the catalog, once; a model's record is parsed when first read.
#include "llmcalc/catalog.h"

#include <stdexcept>

#include "llmcalc/embedded_data.h"
#include "json_text.h"

namespace llmcalc {
namespace {

bool starts_with(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

// data/models/<id>.json and data/devices/<id>.json are named by their record's id (a catalog test
// checks it), which the module's copies leave out (cmake/embed_data.mjs).
std::string id_from_path(const std::string& path, const char* folder) {
  const std::size_t prefix = std::string(folder).size();
  const std::size_t suffix = std::string(".json").size();
  return path.substr(prefix, path.size() - prefix - suffix);
}

}  // namespace

const Catalog& Catalog::instance() {
  static const Catalog catalog;
  return catalog;
}

const nlohmann::json& CatalogModel::record() const {
  if (!parsed_) parsed_ = parse_json(text);
  return *parsed_;
}

const nlohmann::json& CatalogModel::config() const {
  const nlohmann::json& r = record();
  auto base = r.find("config_same_as");
  const CatalogModel* same = base != r.end() && base->is_string() ? Catalog::instance().find_model(base->get<std::string>()) : nullptr;
  return same ? same->config() : r.at("config");
}

std::string CatalogModel::source() const {
  const nlohmann::json& r = record();
  auto source = r.find("source");
  if (source != r.end() && source->is_string()) return source->get<std::string>();
  return "https://huggingface.co/" + r.value("hf_repo", "") + "/blob/main/config.json";
}

Catalog::Catalog() {
  for (const EmbeddedFile& file : embedded_data_files()) {
    std::string path = file.path;
    if (starts_with(path, "models/")) {
      std::string id = id_from_path(path, "models/");
      model_index_[id] = models_.size();
      CatalogModel model;
      model.id = id;
      model.text = file.content;
      models_.push_back(std::move(model));
      continue;
    }
    nlohmann::json record = parse_json(file.content);
    if (starts_with(path, "devices/")) {
      if (record.contains("incomplete")) continue;  // a record still missing a core figure
      std::string id = id_from_path(path, "devices/");
      record["id"] = id;  // hardware_from_record reads it, as from a request's own device
      device_index_[id] = devices_.size();
      devices_.push_back({id, std::move(record)});
    } else if (path == "config_defaults.json") {
      for (const auto& [model_type, entry] : record.at("defaults").items()) {
        config_defaults_[model_type] = entry.at("values");
      }
    } else if (path == "cloud_offers.json" || path == "api_prices.json" || path == "engines.json" ||
               path == "links.json") {
      documents_[path] = std::move(record);
    } else if (path == "formats/ggml_types.json") {
      for (const auto& type : record.at("types")) {
        GgmlType t{type.at("name").get<std::string>(), type.at("block_elements").get<int64_t>(),
                   type.at("type_size_bytes").get<int64_t>(), type.at("ggml_type_id").get<int>()};
        ggml_index_[t.name] = ggml_types_.size();
        ggml_types_.push_back(t);
      }
    }
  }
}

const GgmlType* Catalog::find_ggml_type_id(int64_t id) const {
  for (const GgmlType& type : ggml_types_) {
    if (type.ggml_type_id == id) return &type;
  }
  return nullptr;
}

const CatalogModel* Catalog::find_model(const std::string& id) const {
  auto it = model_index_.find(id);
  return it == model_index_.end() ? nullptr : &models_[it->second];
}

const CatalogDevice* Catalog::find_device(const std::string& id) const {
  auto it = device_index_.find(id);
  return it == device_index_.end() ? nullptr : &devices_[it->second];
}

const GgmlType* Catalog::find_ggml_type(const std::string& name) const {
  auto it = ggml_index_.find(name);
  return it == ggml_index_.end() ? nullptr : &ggml_types_[it->second];
}

}  // namespace llmcalc

namespace llmcalc {

const nlohmann::json& Catalog::document(const std::string& path) const {
  static const nlohmann::json missing;
  auto it = documents_.find(path);
  return it == documents_.end() ? missing : it->second;
}

const nlohmann::json* Catalog::config_defaults(const std::string& model_type) const {
  auto it = config_defaults_.find(model_type);
  return it == config_defaults_.end() ? nullptr : &it->second;
}

}  // namespace llmcalc
