// The command-line library's names (cli/command.h, cli/options.h) as the app's: each
// app/cmd_*.cpp registers its command and declares its options with them unqualified.
#pragma once

#include "cli/command.h"
#include "cli/options.h"

namespace veletas::app {

using cli::AddConfigOptions;
using cli::AddGameOptions;
using cli::AddRequiredConfig;
using cli::Command;
using cli::CommandError;
using cli::CommandRun;
using cli::Commands;
using cli::CommandSetup;
using cli::ConfigArgs;
using cli::ConfigFromArgs;
using cli::GameArgs;
using cli::RecordArgument;
using cli::Required;
using cli::ResolveGame;
using cli::StatusCheck;
using cli::UsageError;

}  // namespace veletas::app
