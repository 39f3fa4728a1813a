// Section `cluster` (config::ClusterConfig): the keys, ranges and help are the struct's table
// (config/cluster_settings.cpp).
#include "config/config.h"

namespace veletas::config {

void ParseClusterSection(ConfigSection& s, ClusterConfig& out) {
  util::ReadFields<ClusterConfig>(ClusterConfig::Fields(), out, s);
  if (out.redis.empty()) {  // the section asks for a cluster: it needs its server
    s.Fail("redis", "expected redis://HOST[:PORT] in a cluster section");
  }
  s.Check(out.Validate());
  s.RejectUnknownKeys();
}

}  // namespace veletas::config
