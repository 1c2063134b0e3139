#import "ObjCBase.h"

NS_ASSUME_NONNULL_BEGIN

/// Counts what the user does. A strict singleton: only `+sharedLogger` makes the instance.
@interface MetricsLogger : NSObject

@property (class, nonatomic, readonly) MetricsLogger *sharedLogger;

- (instancetype)init NS_UNAVAILABLE;
+ (instancetype)new NS_UNAVAILABLE;

- (void)logScreen:(int)screenID duration:(double)seconds;
- (void)logTap:(NSInteger)buttonID;
- (NSInteger)countOfEvents;
- (void)flushWithCompletion:(void (^)(BOOL success))completion;
- (void)resetCounters NS_SWIFT_NAME(reset());
@property (nonatomic) BOOL verbose;
@property (nonatomic, readonly) double totalSeconds;

@end

NS_ASSUME_NONNULL_END
