#import "CrashReporter.h"
#import "MetricsLogger.h"

@implementation CrashReporter

- (void)reportWithScreen:(int)screenID {
    [[MetricsLogger sharedLogger] logScreen:screenID duration:0];
}

@end
