#import "MetricsLogger.h"

@interface MetricsLogger ()
- (instancetype)initPrivately;
@end

@implementation MetricsLogger {
    NSInteger _events;
    double _seconds;
}

+ (MetricsLogger *)sharedLogger {
    static MetricsLogger *shared = nil;
    static dispatch_once_t once;
    dispatch_once(&once, ^{
        shared = [[self alloc] initPrivately];
    });
    return shared;
}

- (instancetype)initPrivately {
    self = [super init];
    return self;
}

- (void)logScreen:(int)screenID duration:(double)seconds {
    _events += 1;
    _seconds += seconds;
}

- (void)logTap:(NSInteger)buttonID {
    _events += 1;
}

- (NSInteger)countOfEvents {
    return _events;
}

- (void)flushWithCompletion:(void (^)(BOOL success))completion {
    _events = 0;
    completion(YES);
}

- (void)resetCounters {
    _events = 0;
    _seconds = 0;
}

- (double)totalSeconds {
    return _seconds;
}

@end
