// The machine's identity as other processes see it (native builds only).
#pragma once

#include <string>

namespace veletas::util {

// This machine's host name (gethostname); "" when it cannot be read.
std::string HostName();

}  // namespace veletas::util
