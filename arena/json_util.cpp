#include "arena/json_util.h"

#include <cmath>

#include "util/json.h"

namespace veletas::arena {

using nlohmann::json;

JsonFields::JsonFields(const json& object, std::string path)
    : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) {
    error_ = (path_.empty() ? std::string("top level") : path_) + ": expected a JSON object, got " +
             object_.type_name();
  }
}

bool JsonFields::Has(const std::string& key) const {
  return object_.is_object() && object_.contains(key) && !object_.at(key).is_null();
}

std::string JsonFields::Name(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void JsonFields::Fail(const std::string& message) {
  if (error_.empty()) error_ = message;
}

const json* JsonFields::Get(const std::string& key, const char* expected) {
  if (!ok()) return nullptr;
  if (!object_.contains(key)) {
    Fail(Name(key) + ": missing (expected " + expected + ")");
    return nullptr;
  }
  return &object_.at(key);
}

long long JsonFields::Int(const std::string& key, long long lo, long long hi) {
  const json* v = Get(key, "an integer");
  if (v == nullptr) return lo;
  if (!v->is_number_integer()) {
    Fail(Name(key) + ": expected an integer, got " + util::JsonExcerpt(*v));
    return lo;
  }
  const long long x = v->is_number_unsigned() ? static_cast<long long>(std::min<unsigned long long>(
                                                    v->get<unsigned long long>(), 1ULL << 62))
                                              : v->get<long long>();
  if (x < lo || x > hi) {
    Fail(Name(key) + ": " + std::to_string(x) + " is out of range [" + std::to_string(lo) + ", " +
         std::to_string(hi) + "]");
    return lo;
  }
  return x;
}

double JsonFields::Real(const std::string& key, double lo, double hi) {
  const json* v = Get(key, "a number");
  if (v == nullptr) return lo;
  if (!v->is_number()) {
    Fail(Name(key) + ": expected a number, got " + util::JsonExcerpt(*v));
    return lo;
  }
  const double x = v->get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) {
    Fail(Name(key) + ": " + util::JsonExcerpt(*v) + " is out of range [" + json(lo).dump() + ", " +
         json(hi).dump() + "]");
    return lo;
  }
  return x;
}

std::string JsonFields::String(const std::string& key) {
  const json* v = Get(key, "a string");
  if (v == nullptr) return "";
  if (!v->is_string()) {
    Fail(Name(key) + ": expected a string, got " + util::JsonExcerpt(*v));
    return "";
  }
  return v->get<std::string>();
}

const json* JsonFields::Object(const std::string& key) {
  const json* v = Get(key, "an object");
  if (v != nullptr && !v->is_object()) {
    Fail(Name(key) + ": expected an object, got " + util::JsonExcerpt(*v));
    return nullptr;
  }
  return v;
}

const json* JsonFields::Array(const std::string& key) {
  const json* v = Get(key, "an array");
  if (v != nullptr && !v->is_array()) {
    Fail(Name(key) + ": expected an array, got " + std::string(v->type_name()));
    return nullptr;
  }
  return v;
}

double Round(double x, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(x * scale) / scale;
}

void AddEloFields(json& out, const EloEstimate& e) {
  out["score"] = Round(e.score, 4);
  out["elo"] = Round(e.elo, 2);
  const json low = e.bound == EloBound::kTwoSided || e.bound == EloBound::kLowerOnly
                       ? json(Round(e.ci_low, 2))
                       : json(nullptr);
  const json high = e.bound == EloBound::kTwoSided || e.bound == EloBound::kUpperOnly
                        ? json(Round(e.ci_high, 2))
                        : json(nullptr);
  out["elo_ci95"] = json::array({low, high});
  out["elo_bound"] = EloBoundName(e.bound);
  out["los"] = Round(e.los, 4);
}

}  // namespace veletas::arena
