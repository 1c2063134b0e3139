// A stand-in for the little of Foundation the legacy classes use, so that Linux can check both
// sides: Swift through `-import-objc-header`, the `.m` files through `clang -fsyntax-only`.
#pragma once

#define NS_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define NS_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#define NS_UNAVAILABLE __attribute__((unavailable))
#define NS_SWIFT_NAME(name) __attribute__((swift_name(#name)))
#define YES ((BOOL)1)
#define NO ((BOOL)0)
#define nil ((id)0)

typedef _Bool BOOL;
typedef long NSInteger;
typedef unsigned long NSUInteger;
typedef long dispatch_once_t;
void dispatch_once(dispatch_once_t *predicate, void (^block)(void));

__attribute__((objc_root_class))
@interface NSObject
+ (instancetype)alloc;
+ (instancetype)new;
- (instancetype)init;
@end
