import { Type } from 'typebox'

export const ImageParams = Type.Object({ file: Type.String({ maxLength: 64, description: '<id>.<png|jpg>' }) })
