import Foundation
import SpotlightIndex
print("helper")
