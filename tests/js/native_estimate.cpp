// Native reference for the module tier: reads one request per line from stdin and prints one
// envelope per line, so node tests can compare the wasm module with the native core. A request
// with a "plan" object goes to the planner.
#include <iostream>
#include <string>

#include "llmcalc/api.h"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    bool plan = line.find("\"plan\"") != std::string::npos;
    std::cout << (line == "catalog" ? llmcalc::catalog_json()
                  : plan            ? llmcalc::plan_json(line)
                                    : llmcalc::estimate_json(line))
              << "\n";
  }
  return 0;
}
