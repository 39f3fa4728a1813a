// A worker's identity (internal to cluster/worker*.cpp): its id, kept in DIR/worker_id, the
// host it runs on, and random words for game seeds.
#pragma once

#include <cstdint>
#include <string>

#include "util/result.h"

namespace veletas::cluster {

// A random 64-bit word from the system's random device (distinct on every call and start).
uint64_t RandomWord();

// util::HostName reduced to the characters a worker id may hold ("worker" when unknown).
std::string HostNameForIds();

// The worker's id: `given`, else DIR/worker_id, else a new one (host name and a random
// suffix); saved in DIR/worker_id. Errors: an unreadable file, an id that ValidateName
// refuses, a failed write.
util::Result<std::string> WorkerId(const std::string& dir, const std::string& given);

}  // namespace veletas::cluster
