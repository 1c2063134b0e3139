#import "MetricsLogger.h"
#import "SessionStore.h"
#import "CrashReporter.h"
