// Every report writer, for callers that want them all (apps/tessel).
#pragma once

#include "reports/breakdown.h"
#include "reports/csv.h"
#include "reports/format.h"
#include "reports/json.h"
#include "reports/table.h"
#include "reports/top_ops.h"
