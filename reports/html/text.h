// Text helpers of the HTML report: escaping and number formatting for readers and scripts.
#pragma once

#include <string>
#include <string_view>

namespace tessel::reports::html {

// Escapes & < > " ' so text from a JSON document is safe in element content and attributes.
std::string escape(std::string_view s);
// The shortest decimal text that reads back as exactly `v` ("1500", "0.8", "1.2e-06").
std::string exactNumber(double v);
// A number for readers: 3 significant digits and an SI prefix ("1.23 M", "456", "12.3 k").
std::string humanNumber(double v);
// "1.23 M cycles"
std::string humanCycles(double cycles);
// The percent-encoded body of a data: URI.
std::string uriEncode(std::string_view s);

}  // namespace tessel::reports::html
