#include "util/host.h"

#include <unistd.h>

namespace veletas::util {

std::string HostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

}  // namespace veletas::util
