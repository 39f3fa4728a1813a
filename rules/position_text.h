// A position in words for people (`veletas show`, the terminal game): colours and the
// decision pending. Plain strings (the WebAssembly build compiles rules).
#pragma once

#include <string>

#include "rules/position.h"

namespace veletas::rules {

// "Black" or "White".
const char* ColorWord(Color c);

// What the player to move decides in words, e.g. "place a setup shooter", "shoot",
// "none (game over)".
const char* DecisionText(Decision d);

// The lines `veletas show` prints below the diagram: rules, size and turns played; who is
// to move; the decision; the claims; the winner; the legend of the diagram.
std::string PositionReport(const Position& pos);

// What the symbols of rules::Diagram mean, one line without its newline: "legend: x black
// stone, o white stone, S shooter, X/O shooter claimed by Black/White".
const char* DiagramLegend();

}  // namespace veletas::rules
