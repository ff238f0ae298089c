// Internal: the calibrated speed assumptions of data/speed_calibration.json for a calibration key
// (a backend, ".hbm" for HBM parts) and an engine (servers have their own rows), read once. Apart
// from speed.cpp so that this one-time reading is built for size, the speed model for speed
// (issue #22).
#pragma once

#include <string>

#include "llmcalc/speed.h"

namespace llmcalc {

SpeedAssumptions lookup_speed_assumptions(const std::string& key, const std::string& engine);

}  // namespace llmcalc
