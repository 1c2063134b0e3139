// Like Apple's UIKit, importing UIKit also imports Foundation.
@_exported import Foundation
