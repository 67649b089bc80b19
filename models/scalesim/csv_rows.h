// Internal to models/scalesim/: the lines of a SCALE-Sim CSV split into fields that remember
// where they start, so every error can name its line and column.
#pragma once

#include <string>
#include <vector>

namespace tessel::models::scalesim {

struct Field {
  std::string text;  // trimmed of spaces, tabs and non-breaking spaces (U+00A0)
  int column = 0;    // 1-based column of its first character (of the separator's slot when empty)
};

struct Row {
  int line = 0;  // 1-based
  std::vector<Field> fields;
};

// The field separator of a topology: '\t' when its first non-blank line (the header) has a tab
// and no comma (SCALE-Sim's UNet_maestro.csv), else ','.
char separatorOf(const std::string& text);

// Splits `text` at '\n' (a trailing '\r' is dropped, so CRLF files read alike) and each line at
// `separator`. A UTF-8 byte-order mark before the first line is skipped. A field starting with
// '#' ends its line (a comment such as mobilnet's "#dw"). Lines with no non-empty field (blank,
// or spacers such as ",,,,,,,,") are left out. One empty field after a line's last separator is
// dropped: SCALE-Sim ends every line with a comma, and files written without it read the same.
std::vector<Row> splitRows(const std::string& text, char separator = ',');

}  // namespace tessel::models::scalesim
