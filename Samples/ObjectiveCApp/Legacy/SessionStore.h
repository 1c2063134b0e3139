#import "ObjCBase.h"

NS_ASSUME_NONNULL_BEGIN

/// The signed-in session. Not strict: `+sharedStore` hands out one instance, and tests may make their own.
@interface SessionStore : NSObject

+ (instancetype)sharedStore;

@property (nonatomic) NSInteger userID;
- (BOOL)isSignedIn;
- (void)signOut;

@end

NS_ASSUME_NONNULL_END
