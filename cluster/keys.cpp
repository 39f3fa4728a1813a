#include "cluster/keys.h"

#include <cctype>

namespace veletas::cluster {

util::Status ValidateName(const std::string& what, std::string_view name) {
  bool ok = !name.empty() && name.size() <= 64;
  for (char c : name) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  }
  if (ok) return util::Ok();
  return util::Status::Error(what + " \"" + std::string(name.substr(0, 80)) +
                             "\": expected 1 to 64 characters of A-Z, a-z, 0-9, '.', '_', '-'");
}

}  // namespace veletas::cluster
