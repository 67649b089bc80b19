// Reads the marks back out of generated SVG/HTML, as a browser test would from the DOM: every
// element with class "mark", its attributes and its <title> text.
#pragma once

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace tessel::reports::testing {

struct Element {
  std::string tag;
  std::map<std::string, std::string> attrs;
  std::string title;  // the <title> child's text, as escaped in the source
};

// Elements whose start tag matches `tag_regex` (e.g. "rect|circle") and whose class contains
// `cls`, within the element with id `id` (the whole text when `id` is empty).
inline std::vector<Element> elements(const std::string& text, const std::string& id,
                                     const std::string& tag_regex = "rect|circle",
                                     const std::string& cls = "mark") {
  std::string scope = text;
  if (!id.empty()) {
    const size_t at = text.find("id=\"" + id + "\"");
    if (at == std::string::npos) return {};
    const size_t end = text.find("</svg>", at);
    scope = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
  std::vector<Element> out;
  const std::regex start("<(" + tag_regex + ")\\b([^>]*)>(<title>([^<]*)</title>)?");
  const std::regex attr("([a-zA-Z0-9_:-]+)=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(scope.begin(), scope.end(), start);
       it != std::sregex_iterator(); ++it) {
    Element e{(*it)[1], {}, (*it)[4]};
    const std::string a = (*it)[2];
    for (auto m = std::sregex_iterator(a.begin(), a.end(), attr); m != std::sregex_iterator();
         ++m) {
      e.attrs[(*m)[1]] = (*m)[2];
    }
    if (e.attrs["class"].find(cls) != std::string::npos) out.push_back(std::move(e));
  }
  return out;
}

}  // namespace tessel::reports::testing
