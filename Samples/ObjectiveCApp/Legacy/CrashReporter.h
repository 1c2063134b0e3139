#import "ObjCBase.h"

/// Objective-C code that still sends the accessor message itself.
@interface CrashReporter : NSObject
- (void)reportWithScreen:(int)screenID;
@end
