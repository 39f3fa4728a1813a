#include "cluster/worker/worker_id.h"
#include "util/names.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <random>

#include "cluster/transport/keys.h"
#include "util/atomic_file.h"
#include "util/host.h"

namespace veletas::cluster {

namespace fs = std::filesystem;

uint64_t RandomWord() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

std::string HostNameForIds() {
  const std::string raw = util::HostName();
  std::string out;
  for (size_t i = 0; i < raw.size() && out.size() < 40; ++i) {
    const char c = raw[i];
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  }
  return out.empty() ? "worker" : out;
}

util::Result<std::string> WorkerId(const std::string& dir, const std::string& given) {
  const std::string path = (fs::path(dir) / "worker_id").string();
  std::string id = given;
  if (id.empty() && fs::exists(path)) {
    auto text = util::ReadFile(path);
    if (!text) return text.error_value();
    id = text.value();
    while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) id.pop_back();
  }
  if (id.empty()) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%06llx",
                  static_cast<unsigned long long>(RandomWord() & 0xFFFFFF));
    id = HostNameForIds() + "-" + suffix;
  }
  if (util::Status s = util::ValidateName(id, "worker id", cluster::kMaxNameLength); !s.ok())
    return s.error_value();
  if (util::Status s = util::WriteFileAtomic(path, id + "\n"); !s.ok()) return s.error_value();
  return id;
}

}  // namespace veletas::cluster
