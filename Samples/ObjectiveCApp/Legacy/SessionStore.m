#import "SessionStore.h"

static SessionStore *sharedSessionStore = nil;

@implementation SessionStore

+ (instancetype)sharedStore {
    if (sharedSessionStore == nil) {
        sharedSessionStore = [[SessionStore alloc] init];
    }
    return sharedSessionStore;
}

- (BOOL)isSignedIn {
    return self.userID != 0;
}

- (void)signOut {
    self.userID = 0;
}

@end
