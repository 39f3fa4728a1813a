// The machine's identity as other processes see it, and the process's environment (native
// builds only).
#pragma once

#include <string>

namespace veletas::util {

// This machine's host name (gethostname); "" when it cannot be read.
std::string HostName();

// OpenMP threads that wait by spinning (libgomp's default) collapse a process's network
// throughput when another process shares its cores (issue 27: 1/7 of idle). libgomp reads
// OMP_WAIT_POLICY when it loads, before main, so an unset policy is set to PASSIVE and the
// program (`argv`, from main) executed again; a policy the user set is kept. Returns only
// when the policy was set or the program cannot be executed again (it then goes on as is).
void UsePassiveOpenMpWaiting(char** argv);

}  // namespace veletas::util
