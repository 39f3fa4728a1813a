// The run configuration as the app's commands name it: config::Config and its reader
// (config/config.h) under the names the commands have always used.
#pragma once

#include "config/config.h"

namespace veletas::app {

using config::Config;
using config::GameConfig;
using config::LoadConfig;
using config::LoadConfigFromString;

}  // namespace veletas::app
