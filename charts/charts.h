// Charts of a run, drawn by matplotlib: the `veletas` binary embeds charts/veletas_charts.py
// (at build time) and runs it with a Python interpreter on the JSON/JSONL files the run
// writes, so nothing beside the binary has to be installed but Debian's python3-matplotlib.
//
// Interpreter: $VELETAS_PYTHON when set (only that one), else the first of /usr/bin/python3
// and `python3` in PATH that has matplotlib. Charts are a by-product: callers report a
// charts error and carry on; the JSON files they are drawn from are the primary output.
#pragma once

#include <string>
#include <string_view>

#include "util/result.h"

namespace veletas::charts {

// The script's own text (what the binary runs).
std::string_view ChartsScript();

// Every chart of the run directory `run_dir` (elo.png, losses.png, speed.png, gate.png;
// those without data are skipped) into `out_dir`, created if missing. Returns the script's
// report, one line per chart ("wrote PATH", "skipped NAME: WHY", notes on unreadable lines).
// Errors (failures): no Python with matplotlib (the message says what to install), a chart
// that cannot be drawn or written (naming it), a run longer than the time limit.
util::Result<std::string> DrawRunCharts(const std::string& run_dir, const std::string& out_dir);

// Elo by generation from a ratings.json file (docs/RATINGS.md) into `png`. As DrawRunCharts.
util::Result<std::string> DrawRatingsChart(const std::string& ratings_json, const std::string& png);

// Training losses by step from a metrics.jsonl file (training/metrics.h) into `png`. As
// DrawRunCharts.
util::Result<std::string> DrawLossChart(const std::string& metrics_jsonl, const std::string& png);

}  // namespace veletas::charts
