// The language of the sentences the core writes for people (warnings, command notes, what an
// engine cannot run, the "show the math" formulas): English, or Spanish when the request says
// "lang": "es" (the page passes its own). Each sentence is written in both languages where it is
// made, so the two cannot drift apart.
#pragma once

#include <string>

namespace llmcalc {

enum class Language { en, es };

inline std::string say(Language lang, std::string english, std::string spanish) {
  return lang == Language::es ? std::move(spanish) : std::move(english);
}

}  // namespace llmcalc
