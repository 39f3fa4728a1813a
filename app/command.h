// The command table is the command-line library's (cli/command.h); app/cli.h gives its names
// to the app's command files.
#pragma once

#include "app/cli.h"
